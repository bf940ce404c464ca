package main

import (
	"io"

	"github.com/nats-io/nats.go"
	"github.com/spf13/pflag"

	"trench/natsrun"
)

// natsFlags are the flags that reach and log in to a NATS server.
type natsFlags struct {
	url  *string
	conn natsrun.ConnOptions
}

// bindNATSFlags declares --nats and the usual NATS login and TLS flags.
func bindNATSFlags(fs *pflag.FlagSet, urlHelp string) *natsFlags {
	f := &natsFlags{url: fs.String("nats", "", urlHelp)}
	fs.StringVar(&f.conn.Creds, "nats-creds", "", "NATS credentials file (JWT and NKey seed)")
	fs.StringVar(&f.conn.User, "nats-user", "", "NATS user name")
	fs.StringVar(&f.conn.Password, "nats-password", "", "NATS password")
	fs.StringVar(&f.conn.Token, "nats-token", "", "NATS authentication token")
	fs.StringVar(&f.conn.TLSCA, "nats-tls-ca", "", "CA certificate file that verifies the NATS server")
	fs.StringVar(&f.conn.TLSCert, "nats-tls-cert", "", "client certificate file for NATS TLS")
	fs.StringVar(&f.conn.TLSKey, "nats-tls-key", "", "client key file for NATS TLS")
	return f
}

// connect connects to the server as name; retry keeps trying a server that
// is not up yet.
func (f *natsFlags) connect(name string, log io.Writer, retry bool) (*nats.Conn, error) {
	o := f.conn
	o.URL, o.Name, o.Log, o.Retry = *f.url, name, log, retry
	return natsrun.Connect(o)
}
