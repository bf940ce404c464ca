package natsrun

import (
	"io"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func TestFlags(t *testing.T) {
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	f := BindFlags(fs, "the server")
	if f.URL() != "" {
		t.Errorf("URL() = %q before parsing", f.URL())
	}
	err := fs.Parse([]string{"--nats", "nats://h:1", "--nats-creds", "c", "--nats-user", "u", "--nats-password", "p",
		"--nats-token", "t", "--nats-tls-ca", "ca", "--nats-tls-cert", "cert", "--nats-tls-key", "key"})
	if err != nil {
		t.Fatal(err)
	}
	want := ConnOptions{URL: "nats://h:1", Creds: "c", User: "u", Password: "p", Token: "t", TLSCA: "ca", TLSCert: "cert", TLSKey: "key"}
	if f.Conn != want || f.URL() != "nats://h:1" {
		t.Errorf("flags read %+v, want %+v", f.Conn, want)
	}
	if u := fs.Lookup("nats").Usage; u != "the server" {
		t.Errorf("--nats's help is %q", u)
	}
}

func TestFlagsConnect(t *testing.T) {
	s := startServer(t, t.TempDir(), -1, 0)
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	f := BindFlags(fs, "")
	if err := fs.Parse([]string{"--nats", s.ClientURL()}); err != nil {
		t.Fatal(err)
	}
	nc, err := f.Connect("flags test", io.Discard, false)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if !nc.IsConnected() || nc.Opts.Name != "flags test" {
		t.Errorf("connected %v as %q", nc.IsConnected(), nc.Opts.Name)
	}
	f.Conn.TLSCert = "cert" // without its key
	if _, err := f.Connect("x", io.Discard, false); err == nil || !strings.Contains(err.Error(), "key") {
		t.Errorf("a certificate without its key: %v", err)
	}
}
