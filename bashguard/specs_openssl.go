package bashguard

import "sync"

// opensslSpec is the spec of openssl's clients (s_client, s_time, ocsp),
// their options as their -help lists them, one dash each, a
// value the next word; read by the one scanner for the hosts they reach
// (netTools). -nbio_test is a flag: it takes no value.
var opensslSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "openssl", grammar: grammar{permute: true, oneDash: true}, rows: rows(
		each(kWord, "", "-connect=", "-host=", "-port=", "-proxy=", "-servername=", "-url=", "-starttls=", "-verify=",
			"-cipher=", "-ciphersuites=", "-groups=", "-sigalgs=", "-alpn=", "-name=", "-xmpphost=", "-bind=", "-unix=",
			"-time="),
		each(kRead, "", "-cert=", "-key=", "-CAfile=", "-CApath=", "-sess_in="),
		each(kWrite, "", "-sess_out=", "-keylogfile=", "-msgfile="),
		each(kFlag, "", "-nbio_test", "-showcerts", "-brief", "-quiet", "-tls1", "-tls1_1", "-tls1_2", "-tls1_3", "-ign_eof",
			"-no_ign_eof", "-crlf", "-state", "-debug", "-msg", "-status", "-prexit", "-reconnect", "-verify_return_error",
			"-4", "-6", "-nbio", "-tlsextdebug", "-no_ticket", "-legacy_renegotiation"),
	)}).compile()
})
