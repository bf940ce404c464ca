package natsrun

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/nats-io/nats.go"
)

// ConnOptions say how to reach and log in to a NATS server.
type ConnOptions struct {
	// URL is the server, e.g. nats://host:4222 (several: comma-separated).
	URL string
	// Creds is a credentials file (JWT and NKey seed); User and Password,
	// or Token, are the other ways to log in.
	Creds, User, Password, Token string
	// TLSCA is a CA certificate file to verify the server with; TLSCert
	// and TLSKey are a client certificate and key.
	TLSCA, TLSCert, TLSKey string
	// Name names the connection in the server's monitoring.
	Name string
	// Log receives a line when the connection is lost and when it comes
	// back.
	Log io.Writer
	// Retry keeps trying a server that cannot be reached at the start,
	// instead of failing.
	Retry bool
}

// Connect connects to the server. The connection reconnects by itself,
// forever, whenever the server goes away.
func Connect(o ConnOptions) (*nats.Conn, error) {
	if o.URL == "" {
		return nil, errors.New("no NATS server URL")
	}
	if (o.TLSCert == "") != (o.TLSKey == "") {
		return nil, errors.New("a TLS client certificate needs both its certificate and its key")
	}
	log := o.Log
	if log == nil {
		log = io.Discard
	}
	opts := []nats.Option{
		nats.Name(o.Name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(time.Second),
		nats.ReconnectBufSize(64 << 20),
		nats.DisconnectErrHandler(func(nc *nats.Conn, err error) {
			if nc.IsClosed() {
				return
			}
			if err != nil {
				fmt.Fprintf(log, "lost the NATS server (%v); reconnecting\n", err)
			} else {
				fmt.Fprintln(log, "lost the NATS server; reconnecting")
			}
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) {
			fmt.Fprintf(log, "reconnected to the NATS server at %s\n", nc.ConnectedUrlRedacted())
		}),
	}
	if o.Retry {
		opts = append(opts, nats.RetryOnFailedConnect(true))
	}
	if o.Creds != "" {
		opts = append(opts, nats.UserCredentials(o.Creds))
	}
	if o.User != "" || o.Password != "" {
		opts = append(opts, nats.UserInfo(o.User, o.Password))
	}
	if o.Token != "" {
		opts = append(opts, nats.Token(o.Token))
	}
	if o.TLSCA != "" {
		opts = append(opts, nats.RootCAs(o.TLSCA))
	}
	if o.TLSCert != "" {
		opts = append(opts, nats.ClientCert(o.TLSCert, o.TLSKey))
	}
	nc, err := nats.Connect(o.URL, opts...)
	if err != nil {
		return nil, fmt.Errorf("connecting to NATS at %s: %w", o.URL, err)
	}
	return nc, nil
}
