package bashguard

import "sync"

// mongosh's options, every one its parser defines (@mongosh/arg-parser,
// 2.12: the help test reads them from the parser itself, with whether
// each takes a value), read as yargs-parser reads them there: "--name
// value" or "--name=value", a letter's value the next word or after
// "=", no clusters, no abbreviation, --no-NAME for a boolean, options
// anywhere. mongosh is a JavaScript runtime with node's modules: --eval,
// the scripts -f and its operands ending in .js or .mongodb name, and
// the script it reads from its input run code that reads and writes
// files and runs programs here, which no allow rule for mongosh alone
// lifts; so do the libraries and the browser some options name. The
// legacy mongo shell is read by the same spec: an option it has that
// mongosh lacks asks.
var mongoshRows = rows(
	each(kFlag, "", "--deepInspect[=]", "--apiDeprecationErrors[=]", "--apiStrict[=]", "--buildInfo[=] --build-info[=]",
		"--exposeAsyncRewriter[=]", "--help[=] -h", "--ipv6[=]", "--nodb[=]", "--norc[=]", "--oidcTrustedEndpoint[=]",
		"--oidcIdTokenAsAccessToken[=] --oidcIDTokenAsAccessToken[=]", "--oidcNoNonce[=]", "--quiet[=]", "--retryWrites[=]", "--shell[=]",
		"--skipStartupWarnings[=]", "--verbose[=]", "--version[=]", "--smokeTests[=]", "--perfTests[=]", "--tls[=]",
		"--tlsAllowInvalidCertificates[=]", "--tlsAllowInvalidHostnames[=]", "--tlsFIPSMode[=]", "--tlsUseSystemCA[=]", "--ssl[=]",
		"--sslAllowInvalidCertificates[=]", "--sslAllowInvalidHostnames[=]", "--sslFIPSMode[=]"),
	each(kWord, "", "--apiVersion=", "--authenticationDatabase=", "--authenticationMechanism=", "--awsAccessKeyId=",
		"--awsIamSessionToken=", "--awsSecretAccessKey=", "--awsSessionToken=", "--db=", "--gssapiServiceName=",
		"--sspiHostnameCanonicalization=", "--sspiRealmOverride=", "--jsContext=", "--host=", "--keyVaultNamespace=",
		"--kmsURL=", "--locale=", "--oidcFlows=", "--oidcRedirectUri= --oidcRedirectUrl=", "--password= -p=", "--port=",
		"--username= -u=", "--tlsCertificateKeyFilePassword=", "--tlsCertificateSelector=", "--tlsDisabledProtocols=",
		"--sslPEMKeyPassword=", "--sslCertificateSelector=", "--sslDisabledProtocols=", "--gssapiHostName=", "--json[=]",
		"--oidcDumpTokens[=]"),
	each(kRead, "", "--tlsCAFile=", "--tlsCertificateKeyFile=", "--tlsCRLFile=", "--sslPEMKeyFile=", "--sslCAFile=",
		"--sslCRLFile="),
	each(kScriptFile, "", "--file= -f="),
	each(kProgram, "loads the shared library it names, code that runs here", "--csfleLibraryPath=",
		"--cryptSharedLibPath="),
	each(kProgram, "runs the program it names to open the sign-in page", "--browser="),
	each(kProgram, "runs JavaScript here, which can read and write files and run programs", "--eval="),
)

// mongoshSpec is mongosh's, and mongo's.
var mongoshSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "mongosh", grammar: grammar{permute: true, shortEq: true, negate: true}, rows: mongoshRows,
		scriptOps: []string{".js", ".mongodb"}}).compile()
})
