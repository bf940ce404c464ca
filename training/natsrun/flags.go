package natsrun

import (
	"io"

	"github.com/nats-io/nats.go"
	"github.com/spf13/pflag"
)

// Flags are the command-line flags that reach and log in to a NATS
// server: --nats URL and the usual login and TLS flags.
type Flags struct {
	// Conn holds the flags' values; its URL is --nats.
	Conn ConnOptions
}

// BindFlags declares the flags on fs; urlHelp describes --nats.
func BindFlags(fs *pflag.FlagSet, urlHelp string) *Flags {
	f := &Flags{}
	fs.StringVar(&f.Conn.URL, "nats", "", urlHelp)
	fs.StringVar(&f.Conn.Creds, "nats-creds", "", "NATS credentials file (JWT and NKey seed)")
	fs.StringVar(&f.Conn.User, "nats-user", "", "NATS user name")
	fs.StringVar(&f.Conn.Password, "nats-password", "", "NATS password")
	fs.StringVar(&f.Conn.Token, "nats-token", "", "NATS authentication token")
	fs.StringVar(&f.Conn.TLSCA, "nats-tls-ca", "", "CA certificate file that verifies the NATS server")
	fs.StringVar(&f.Conn.TLSCert, "nats-tls-cert", "", "client certificate file for NATS TLS")
	fs.StringVar(&f.Conn.TLSKey, "nats-tls-key", "", "client key file for NATS TLS")
	return f
}

// URL is the server --nats names, or "" when it is not given.
func (f *Flags) URL() string { return f.Conn.URL }

// Connect connects to the server as name (Connect), writing connection
// news to log; retry keeps trying a server that is not up yet.
func (f *Flags) Connect(name string, log io.Writer, retry bool) (*nats.Conn, error) {
	o := f.Conn
	o.Name, o.Log, o.Retry = name, log, retry
	return Connect(o)
}
