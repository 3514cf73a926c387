package bashguard

import "sync"

// gcloud's and az's command lines: gcloud GROUP... COMMAND [flags], az
// GROUP... COMMAND [args], options anywhere, "--name value" or
// "--name=value". Their commands are their clouds' APIs, far too many to
// list: each spec lists the global options and those that name files of
// this machine or run programs, and reads the rest by class, as aws's
// does. gcloud names every option whose value is a file with "-file"
// (--key-file, --data-file, --plaintext-file, --ciphertext-file): such
// an option not in the rows is judged as a read and a write of its value
// (spec.fileSuffixes); az loads any value written @FILE from that file
// (spec.paramFiles), and names its files --file and "-file" too.
// gcloud storage cp, mv and rsync copy between this machine and gs://
// (kURLCopy), compute scp between it and an instance's NAME:PATH
// (kContainerCopy);
// compute ssh's --ssh-flag and scp's --scp-flag pass options to the
// programs it runs here, and --flags-file reads more options.

// gcloudRows are gcloud's global flags (gcloud help) and the options
// that name a source tree it uploads or files it reads.
var gcloudRows = rows(
	each(kFlag, "", "-h --help", "-q --quiet", "--log-http", "--user-output-enabled", "--no-user-output-enabled"),
	each(kWord, "", "--account=", "--billing-project=", "--configuration=", "--flatten=", "--format=", "--project=",
		"--verbosity=", "--impersonate-service-account=", "--trace-token=", "--filter=", "--limit=", "--page-size=",
		"--sort-by=", "--region=", "--zone=", "--command="),
	each(kConfig, "reads more flags from a file, which may name any option", "--flags-file="),
	each(kBuildContext, "", "--source="),
	each(kKeyFiles, "", "--metadata-from-file="),
	each(kAsk, "passes a flag to the ssh or scp it runs here, which can run programs (ProxyCommand)", "--ssh-flag=",
		"--scp-flag="),
)

// gcloudCommands are what the operands of some commands are.
var gcloudCommands = []leadCommand{
	{"storage cp", kURLCopy, "", nil}, {"storage mv", kURLCopy, "", nil}, {"storage rsync", kURLCopy, "", nil},
	{"alpha storage cp", kURLCopy, "", nil}, {"compute scp", kContainerCopy, "", nil}, {"beta compute scp", kContainerCopy, "", nil},
}

// gcloudSpec is gcloud's.
var gcloudSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "gcloud", grammar: grammar{permute: true}, rows: gcloudRows, leadCommands: gcloudCommands,
		fileSuffixes: []string{"-file"}}).compile()
})

// azRows are az's global arguments (az --help) and those that name files.
var azRows = rows(
	each(kFlag, "", "-h --help", "--debug", "--only-show-errors", "--verbose", "-y --yes", "--no-wait"),
	each(kWord, "", "-o= --output=", "--query=", "--subscription=", "-g= --resource-group=", "-n= --name=",
		"-l= --location="),
)

// azSpec is az's.
var azSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "az", grammar: grammar{permute: true}, rows: azRows, paramFiles: []string{"@"},
		expandsPaths: true, fileSuffixes: []string{"-file"}}).compile()
})
