package bashguard

import "sync"

// kubeRows are kubectl's options, as its own help lists them (kubectl
// options, and kubectl get, describe, logs, exec, apply, create token,
// config view --help): the flags every command takes, and those of its
// commands, in one table, since cobra lets a command's flags stand
// anywhere on its line. kubectl reads them with pflag: "-o yaml",
// "-oyaml", "-o=yaml", "--output=yaml" and "--output yaml" alike, no
// abbreviation of a long name, letters clustered ("-Ao yaml"), and a
// boolean long option may be given "=true" or "=false" ("--raw=true").
// Where two commands spell one option otherwise (-f is get's --filename
// and logs' --follow, -p patch's --patch and logs' --previous, --raw
// get's API path and config view's flag), the letter takes a value, and
// the long name's value is read only attached: a misread leaves a word
// an operand, never a value. An option no row spells is unknown: its
// value, if it takes one, is read as an operand.
var kubeRows = []optRow{
	// The flags of every command (kubectl options).
	{"--as=", kWord, ""}, {"--as-group=", kWord, ""}, {"--as-uid=", kWord, ""}, {"--cache-dir=", kWord, ""},
	{"--certificate-authority=", kRead, ""}, {"--client-certificate=", kRead, ""}, {"--client-key=", kRead, ""},
	{"--cluster=", kWord, ""}, {"--context=", kWord, ""}, {"--kubeconfig=", kRead, ""}, {"-n= --namespace=", kWord, ""},
	{"--password=", kWord, ""}, {"--profile=", kWord, ""}, {"--profile-output=", kWrite, ""},
	{"--request-timeout=", kWord, ""}, {"-s= --server=", kWord, ""}, {"--tls-server-name=", kWord, ""},
	{"--token=", kWord, ""}, {"--user=", kWord, ""}, {"--username=", kWord, ""}, {"-v= --v=", kWord, ""},
	{"--vmodule=", kWord, ""}, {"--log-flush-frequency=", kWord, ""}, {"--disable-compression[=]", kFlag, ""},
	{"--insecure-skip-tls-verify[=]", kFlag, ""}, {"--match-server-version[=]", kFlag, ""},
	{"--warnings-as-errors[=]", kFlag, ""},
	// What is printed, and how (get, describe, config view, create).
	{"-o= --output=", kWord, ""}, {"--template=", kWord, ""}, {"--raw[=]", kFlag, ""}, {"--flatten[=]", kFlag, ""},
	{"--minify[=]", kFlag, ""}, {"--merge[=]", kFlag, ""}, {"--allow-missing-template-keys[=]", kFlag, ""}, {"--show-managed-fields[=]", kFlag, ""},
	{"--show-kind[=]", kFlag, ""}, {"--show-labels[=]", kFlag, ""}, {"--no-headers[=]", kFlag, ""},
	{"--output-watch-events[=]", kFlag, ""}, {"--server-print[=]", kFlag, ""}, {"--show-events[=]", kFlag, ""},
	{"-L= --label-columns=", kWord, ""}, {"--sort-by=", kWord, ""}, {"--chunk-size=", kWord, ""},
	{"--ignore-not-found[=]", kFlag, ""}, {"--subresource=", kWord, ""},
	// Which objects (get and the commands that change them).
	{"-A --all-namespaces[=]", kFlag, ""}, {"-l= --selector= --labels=", kWord, ""}, {"--field-selector=", kWord, ""},
	{"-f= --filename=", kRead, ""}, {"-k= --kustomize=", kRead, ""}, {"-R --recursive[=]", kFlag, ""},
	{"--all[=]", kFlag, ""}, {"-w --watch[=]", kFlag, ""}, {"--watch-only[=]", kFlag, ""},
	// The commands that run, follow or change (exec, logs, apply, run,
	// create token, ...).
	{"-c= --container=", kWord, ""}, {"-i --stdin[=] --interactive[=]", kFlag, ""}, {"-t --tty[=]", kFlag, ""},
	{"-p= --patch=", kWord, ""}, {"-q --quiet[=]", kFlag, ""}, {"--follow[=]", kFlag, ""}, {"--previous[=]", kFlag, ""},
	{"--all-containers[=]", kFlag, ""}, {"--timestamps[=]", kFlag, ""}, {"--since=", kWord, ""},
	{"--since-time=", kWord, ""}, {"--tail=", kWord, ""}, {"--limit-bytes=", kWord, ""}, {"--prefix[=]", kFlag, ""},
	{"--force[=]", kFlag, ""}, {"--wait[=]", kFlag, ""}, {"--overwrite[=]", kFlag, ""}, {"--local[=]", kFlag, ""},
	{"--dry-run=", kWord, ""}, {"--field-manager=", kWord, ""}, {"--server-side[=]", kFlag, ""},
	{"--validate=", kWord, ""}, {"--type=", kWord, ""}, {"--image=", kWord, ""}, {"--replicas=", kWord, ""},
	{"--port=", kWord, ""}, {"--timeout=", kWord, ""}, {"--for=", kWord, ""}, {"--audience=", kWord, ""},
	{"--duration=", kWord, ""}, {"--bound-object-kind=", kWord, ""}, {"--bound-object-name=", kWord, ""},
	{"--bound-object-uid=", kWord, ""}, {"--cascade=", kWord, ""}, {"--grace-period=", kWord, ""},
	{"--now[=]", kFlag, ""}, {"--rm[=]", kFlag, ""}, {"--restart=", kWord, ""}, {"--env=", kWord, ""},
	{"--overrides=", kWord, ""}, {"--save-config[=]", kFlag, ""}, {"--prune[=]", kFlag, ""},
	{"--api-version=", kWord, ""}, {"--address=", kWord, ""},
}

// kubeSpec is kubectl's spec: its options, read by the one scanner for
// the hosts it reaches (netTools) and the Secrets it prints
// (secretPrints).
var kubeSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "kubectl", grammar: grammar{permute: true, shortEq: true}, rows: kubeRows,
		subs: map[string]*spec{"cp": kubeCpSpec()}}).compile()
})

// kubeCpSpec is kubectl cp's (and oc cp's): every command's options
// and its own (kubectl cp --help); its operands are a pod's path,
// [NAMESPACE/]POD:PATH, and one of this machine (kContainerCopy).
func kubeCpSpec() *spec {
	return &spec{grammar: grammar{permute: true, shortEq: true},
		rows: []optRow{{"--no-preserve[=]", kFlag, ""}, {"--retries=", kWord, ""}}, joined: join(kubeRows), operands: kContainerCopy}
}

// ocSpec is oc's: kubectl's options, and oc's own before them (the
// first row wins: oc's -t is whoami's --show-token).
var ocSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "oc", grammar: grammar{permute: true, shortEq: true},
		rows: []optRow{{"-t --show-token[=]", kFlag, ""}, {"--confirm[=]", kFlag, ""}, {"--to=", kWrite, ""},
			{"--keys=", kWord, ""}}, joined: join(kubeRows), subs: map[string]*spec{"cp": kubeCpSpec()}}).compile()
})
