package bashguard

import "sync"

// The command lines that print a credential a store or a service keeps:
// a token, a password, a cluster's secrets, a decrypted parameter. The
// programs reach the network or a keychain, so their lines ask anyway;
// what a row adds is that the Ask is one an allow rule for the program
// or its subcommand does not lift ("Bash(gh auth:*)" leaves "gh auth
// token" asked, "Bash(kubectl get:*)" leaves "kubectl get secrets -o
// yaml"), only a rule that names the row's word does ("Bash(gh auth
// token:*)", "Bash(kubectl get secrets:*)"). secretPrinted reads the
// table (model_secrets.go).

// secretPrint is one row: a form of the command's line that prints a
// credential. Every condition a row sets must hold; the words of the
// line that meet them are named in the reason and are what a rule must
// name to lift the Ask.
type secretPrint struct {
	// path are the words, separated by spaces, that name the subcommand
	// ("auth token"), found among the line's operands in their order,
	// whatever stands between them: an option the spec does not know
	// leaves its value an operand, so a misread errs towards finding the
	// row. "" is the program itself.
	path string
	// flags are the spellings of options, separated by spaces, one of
	// which must be given ("--show-token -t"), in any spelling the
	// program's spec reads (secretSpec): a letter in a cluster, a long
	// one abbreviated where the program takes abbreviations.
	flags string
	// res are the names, separated by spaces, one of which an operand
	// must name (kubectl's resource "secrets"): a word is cut at ",",
	// "/", "." and ":", and any part counts, case aside ("Secret/db",
	// "secrets.v1", "default.aws_secret_access_key").
	res string
	// format are the spellings of the options whose value picks what is
	// printed ("-o --output"): with format set, the line prints the
	// credential only when one of them is given a value whose name (the
	// value up to "=") is not in plain, or one only known at run time.
	// A line that lacks the row's flags or format still meets it where
	// an option the spec cannot read may stand for them (hides): any
	// option kubectl's whole table does not list (--templ), a cluster of
	// letters whose rest is not read ("-Xo yaml"); asked, naming it.
	format string
	plain  string
	// except, for a row whose path is "", are the first words that do
	// not print it (pass ls): any other first word does (pass NAME shows
	// the password NAME). A line without a word prints none.
	except string
	// why is what the line prints.
	why string
}

// kubeSecretPrints are the rows of kubectl and of oc, which takes
// kubectl's commands: the data of a Secret is printed by a format that
// prints the objects (yaml, json, a template), not by the table of
// names; a file, a kustomization or a raw path may name Secrets too.
var kubeSecretPrints = []secretPrint{
	{path: "get", res: "secret secrets", format: "-o --output", plain: "wide name", why: "the data of the cluster's Secrets"},
	{path: "get", res: "secret secrets", flags: "--template", why: "the data of the cluster's Secrets"},
	{path: "get", flags: "-f --filename -k --kustomize", format: "-o --output", plain: "wide name",
		why: "the objects its files name, which may be Secrets, with their data"},
	{path: "get", flags: "--raw", why: "what an API path returns, which may be the cluster's Secrets"},
	{path: "create token", why: "a service account's token"},
	{path: "config view", flags: "--raw --flatten", why: "the kubeconfig's credentials"},
}

// secretPrints are the rows, by the program's name. The first row a line
// meets is the one its reason names, so a row whose path holds another's
// comes before it (gcloud auth application-default print-access-token).
var secretPrints = sync.OnceValue(func() map[string][]secretPrint {
	return map[string][]secretPrint{
		"kubectl": kubeSecretPrints,
		"oc": append(kubeSecretPrints[:len(kubeSecretPrints):len(kubeSecretPrints)],
			secretPrint{path: "extract", why: "the data of the Secrets and ConfigMaps it names"},
			secretPrint{path: "whoami", flags: "-t --show-token", why: "the session's token"}),
		"gh": {
			{path: "auth token", why: "the GitHub token gh keeps"},
			{path: "auth status", flags: "-t --show-token", why: "the GitHub token gh keeps"},
		},
		"glab": {
			{path: "auth status", flags: "-t --show-token", why: "the GitLab token glab keeps"},
			{path: "config get", res: "token", why: "the GitLab token glab keeps"},
		},
		"git": {
			{path: "credential fill", why: "the credential git's helpers keep for a host"},
			{path: "credential-store get", why: "the credential the store keeps"},
			{path: "credential-cache get", why: "the credential the cache keeps"},
			{path: "credential-libsecret get", why: "the credential the keyring keeps"},
			{path: "credential-osxkeychain get", why: "the credential the keychain keeps"},
			{path: "credential-manager get", why: "the credential the manager keeps"},
		},
		"aws": {
			{path: "configure get", res: "aws_secret_access_key aws_session_token aws_security_token", why: "a key of the profile's credentials"},
			{path: "configure export-credentials", why: "the profile's credentials"},
			{path: "sts get-session-token", why: "new temporary credentials"},
			{path: "sts get-federation-token", why: "new temporary credentials"},
			{path: "sts assume-role", why: "new temporary credentials"},
			{path: "sts assume-role-with-web-identity", why: "new temporary credentials"},
			{path: "sts assume-role-with-saml", why: "new temporary credentials"},
			{path: "sso get-role-credentials", why: "the role's credentials"},
			{path: "ecr get-login-password", why: "a registry password"},
			{path: "ecr-public get-login-password", why: "a registry password"},
			{path: "ecr get-authorization-token", why: "a registry token"},
			{path: "codeartifact get-authorization-token", why: "a repository token"},
			{path: "eks get-token", why: "a cluster token"},
			{path: "rds generate-db-auth-token", why: "a database token"},
			{path: "secretsmanager get-secret-value", why: "a secret's value"},
			{path: "secretsmanager batch-get-secret-value", why: "secrets' values"},
			{path: "ssm get-parameter", flags: "--with-decryption", why: "a decrypted parameter"},
			{path: "ssm get-parameters", flags: "--with-decryption", why: "decrypted parameters"},
			{path: "ssm get-parameters-by-path", flags: "--with-decryption", why: "decrypted parameters"},
			{path: "ssm get-parameter-history", flags: "--with-decryption", why: "decrypted parameters"},
			{path: "kms decrypt", why: "decrypted data"},
			{path: "iam create-access-key", why: "a new access key"},
			{path: "iam create-login-profile", why: "a user's password"},
		},
		"gcloud": {
			{path: "auth application-default print-access-token", why: "an access token"},
			{path: "auth print-access-token", why: "an access token"},
			{path: "auth print-identity-token", why: "an identity token"},
			{path: "config config-helper", why: "an access token"},
			{path: "secrets versions access", why: "a secret's value"},
			{path: "sql generate-login-token", why: "a database token"},
			{path: "iam service-accounts keys create", why: "a new service account key"},
		},
		"az": {
			{path: "account get-access-token", why: "an access token"},
			{path: "keyvault secret show", why: "a secret's value"},
			{path: "keyvault secret download", why: "a secret's value"},
			{path: "acr login", flags: "-t --expose-token", why: "a registry token"},
			{path: "acr credential show", why: "a registry's passwords"},
			{path: "storage account keys list", why: "the storage account's keys"},
			{path: "storage account show-connection-string", why: "a connection string with its key"},
			{path: "cosmosdb keys list", why: "the database's keys"},
			{path: "ad sp create-for-rbac", why: "a new service principal's password"},
			{path: "ad sp credential reset", why: "a new service principal's password"},
			{path: "ad app credential reset", why: "an application's new password"},
		},
		"vault": {
			{path: "read", why: "the secret at the path"},
			{path: "kv get", why: "the secret at the path"},
			{path: "token create", why: "a new token"},
			{path: "print token", why: "the token vault uses"},
			{path: "login", why: "a new token"},
			{path: "unwrap", why: "the wrapped secret"},
		},
		"op": {
			{path: "read", why: "a secret's value"},
			{path: "item get", why: "an item's fields"},
			{path: "document get", why: "a document"},
			{path: "inject", why: "a template with its secrets filled in"},
			{path: "run", why: "secrets to the command it runs, which may print them"},
			{path: "signin", flags: "--raw", why: "a session token"},
		},
		"bw": {
			{path: "get", why: "a vault item's secrets"},
			{path: "list", why: "the vault's items with their secrets"},
			{path: "export", why: "the whole vault"},
			{path: "unlock", flags: "--raw", why: "a session key"},
			{path: "login", flags: "--raw", why: "a session key"},
			{path: "serve", why: "the vault to anyone on its port"},
		},
		"pass": {{except: "ls list find search init insert add edit rm remove delete mv rename cp copy git help version",
			why: "the password the name holds"}},
		"gopass": {{except: "ls list find search init insert edit rm remove delete mv move cp copy git help version " +
			"setup config sync audit fsck templates recipients mounts alias env otp",
			why: "the secret the name holds"}},
		"secret-tool": {
			{path: "lookup", why: "a stored secret"},
			{path: "search", why: "stored secrets"},
		},
		"keyring":   {{path: "get", why: "a stored password"}},
		"security":  {{path: "find-generic-password", flags: "-w -g", why: "a keychain password"}, {path: "find-internet-password", flags: "-w -g", why: "a keychain password"}, {path: "dump-keychain", flags: "-d", why: "the keychain's secrets"}},
		"terraform": terraformSecretPrints, "tofu": terraformSecretPrints,
		"pulumi": {
			{path: "stack output", flags: "--show-secrets", why: "the stack's secret outputs"},
			{path: "stack export", flags: "--show-secrets", why: "the stack's secrets"},
			{path: "config", flags: "--show-secrets", why: "the stack's secret configuration"},
			{path: "config get", why: "a configuration value, decrypted"},
		},
		"helm": {
			{path: "get values", why: "the release's values, which hold its passwords"},
			{path: "get manifest", why: "the release's objects, its Secrets among them"},
			{path: "get all", why: "the release's values and objects, its Secrets among them"},
		},
		"heroku": {
			{path: "auth:token", why: "the Heroku token"},
			{path: "config", why: "the app's configuration variables, its secrets among them"},
			{path: "config:get", why: "an app's configuration variable"},
		},
		"fly":    flySecretPrints,
		"flyctl": flySecretPrints,
		"npm":    {{path: "config get", res: "_authtoken _auth _password", why: "a registry credential"}},
	}
})

// terraformSecretPrints are the rows of terraform and of OpenTofu: the
// JSON and raw forms print the values of sensitive outputs, and the
// state holds every resource's secrets.
var terraformSecretPrints = []secretPrint{
	{path: "output", flags: "-json -raw", why: "the outputs, the sensitive ones too"},
	{path: "show", flags: "-json", why: "the state, its sensitive values too"},
	{path: "state pull", why: "the state, with its secrets"},
}

// flySecretPrints are the rows of fly and flyctl.
var flySecretPrints = []secretPrint{
	{path: "auth token", why: "the Fly.io token"},
	{path: "tokens create", why: "a new token"},
}
