package bashguard

import "sync"

// aws's command line (aws-cli 2): aws [options] SERVICE OPERATION
// [parameters], options anywhere, "--name value" or "--name=value". The
// parameters of a service's operations are its API's, values sent to it,
// far too many to list: the spec lists the global options, the s3
// commands' (aws s3 cp help), and the customizations' options that name
// files of this machine; the rest are left to the host reader, as words.
// What reaches this machine is read by class: any value (or word) that
// is file://PATH or fileb://PATH is a file aws reads and sends (its
// parameter files, paramFiles, "~" and $VAR expanded as aws does); an
// operation whose output streams takes the file it writes as an operand
// (aws s3api get-object ... OUTFILE: awsStreamingOps, kOutfile); aws s3
// cp, mv and sync copy between s3:// and paths of this machine (kURLCopy), a
// local source read with its tree, a local destination written.
// aws configure set and import write the configuration whose
// credential_process runs a program for every later call, and emr's ssh
// and file commands and opsworks register run ssh here: they ask past
// Bash(aws:*).
var awsGlobalRows = rows(
	each(kFlag, "", "--debug", "--no-verify-ssl", "--no-paginate", "--version", "--no-sign-request", "--no-cli-pager",
		"--cli-auto-prompt", "--no-cli-auto-prompt"),
	each(kWord, "", "--endpoint-url=", "--output=", "--query=", "--profile=", "--region=", "--color=",
		"--cli-read-timeout=", "--cli-connect-timeout=", "--cli-binary-format="),
	each(kRead, "", "--ca-bundle="),
	// Parameters of many operations, each taking a value (an API's
	// parameters do, but its booleans).
	each(kWord, "", "--bucket=", "--key=", "--cli-input-json=", "--cli-input-yaml="),
	// Customizations' options that name files of this machine
	// (cloudformation package and deploy, ec2 get-password-data, eks
	// update-kubeconfig, gamelift upload-build).
	each(kRead, "", "--template-file=", "--priv-launch-key="),
	each(kWrite, "", "--output-template-file=", "--kubeconfig="),
	each(kBuildContext, "", "--build-root="),
)

// The options of the aws s3 commands, each as its synopsis lists them
// (aws s3 cp help); --grants takes more than one word, of which the rest
// are read as operands, which is as strict.
var awsS3CpRows = rows(
	each(kFlag, "", "--dryrun", "--quiet", "--follow-symlinks", "--no-follow-symlinks", "--no-guess-mime-type",
		"--only-show-errors", "--no-progress", "--ignore-glacier-warnings", "--force-glacier-transfer", "--recursive"),
	each(kWord, "", "--include=", "--exclude=", "--acl=", "--sse=", "--sse-c=", "--sse-c-key=", "--sse-kms-key-id=",
		"--sse-c-copy-source=", "--sse-c-copy-source-key=", "--storage-class=", "--grants=", "--website-redirect=",
		"--content-type=", "--cache-control=", "--content-disposition=", "--content-encoding=", "--content-language=",
		"--expires=", "--source-region=", "--page-size=", "--request-payer=", "--metadata=", "--copy-props=",
		"--metadata-directive=", "--expected-size="),
)

var awsS3MvRows = rows(
	each(kFlag, "", "--dryrun", "--quiet", "--follow-symlinks", "--no-follow-symlinks", "--no-guess-mime-type",
		"--only-show-errors", "--no-progress", "--ignore-glacier-warnings", "--force-glacier-transfer", "--recursive"),
	each(kWord, "", "--include=", "--exclude=", "--acl=", "--sse=", "--sse-c=", "--sse-c-key=", "--sse-kms-key-id=",
		"--sse-c-copy-source=", "--sse-c-copy-source-key=", "--storage-class=", "--grants=", "--website-redirect=",
		"--content-type=", "--cache-control=", "--content-disposition=", "--content-encoding=", "--content-language=",
		"--expires=", "--source-region=", "--page-size=", "--request-payer=", "--metadata=", "--copy-props=",
		"--metadata-directive="),
)

var awsS3SyncRows = rows(
	each(kFlag, "", "--dryrun", "--quiet", "--follow-symlinks", "--no-follow-symlinks", "--no-guess-mime-type",
		"--only-show-errors", "--no-progress", "--ignore-glacier-warnings", "--force-glacier-transfer", "--size-only",
		"--exact-timestamps", "--delete"),
	each(kWord, "", "--include=", "--exclude=", "--acl=", "--sse=", "--sse-c=", "--sse-c-key=", "--sse-kms-key-id=",
		"--sse-c-copy-source=", "--sse-c-copy-source-key=", "--storage-class=", "--grants=", "--website-redirect=",
		"--content-type=", "--cache-control=", "--content-disposition=", "--content-encoding=", "--content-language=",
		"--expires=", "--source-region=", "--page-size=", "--request-payer=", "--metadata=", "--copy-props=",
		"--metadata-directive="),
)

var awsS3RmRows = rows(
	each(kFlag, "", "--dryrun", "--quiet", "--recursive", "--only-show-errors"),
	each(kWord, "", "--request-payer=", "--include=", "--exclude=", "--page-size="),
)

var awsS3LsRows = rows(
	each(kFlag, "", "--recursive", "--human-readable", "--summarize"),
	each(kWord, "", "--page-size=", "--request-payer="),
)

var awsS3MbRows = rows()

var awsS3RbRows = rows(
	each(kFlag, "", "--force"),
)

var awsS3PresignRows = rows(
	each(kWord, "", "--expires-in="),
)

var awsS3WebsiteRows = rows(
	each(kWord, "", "--index-document=", "--error-document="),
)

// awsStreamingOps are the operations whose output streams to a file, the
// last operand (botocore's models: has_streaming_output; the s3
// service's commands are aws s3api's).
var awsStreamingOps = []string{
	"apigateway get-export", "apigateway get-sdk", "apigatewayv2 export-api",
	"appconfig create-hosted-configuration-version", "appconfig get-configuration",
	"appconfig get-hosted-configuration-version", "appconfigdata get-latest-configuration",
	"appsync get-introspection-schema", "backupstorage get-chunk", "backupstorage get-object-metadata",
	"bedrock-agentcore invoke-agent-runtime", "bedrock-runtime invoke-model", "cloudfront get-connection-function",
	"cloudfront get-function", "codeartifact get-package-version-asset", "codeguruprofiler get-profile",
	"datazone get-lineage-event", "ebs get-snapshot-block", "geo-maps get-glyphs", "geo-maps get-sprites",
	"geo-maps get-static-map", "geo-maps get-style-descriptor", "geo-maps get-tile", "glacier get-job-output",
	"iot-data delete-thing-shadow", "iot-data get-thing-shadow", "iot-data update-thing-shadow",
	"iotwireless get-position-estimate", "iotwireless get-resource-position", "kinesis-video-archived-media get-clip",
	"kinesis-video-archived-media get-media-for-fragment-list", "kinesis-video-media get-media",
	"lakeformation get-work-unit-results", "lambda invoke", "lex-runtime post-content", "lex-runtime put-session",
	"lexv2-runtime put-session", "lexv2-runtime recognize-utterance", "location get-map-glyphs",
	"location get-map-sprites", "location get-map-style-descriptor", "location get-map-tile",
	"medialive describe-input-device-thumbnail", "mediastore-data get-object", "medical-imaging get-image-frame",
	"medical-imaging get-image-set-metadata", "neptune-graph execute-query",
	"neptunedata execute-gremlin-explain-query", "neptunedata execute-gremlin-profile-query",
	"neptunedata execute-open-cypher-explain-query", "omics get-read-set", "omics get-reference",
	"polly synthesize-speech", "s3api get-object", "s3api get-object-torrent", "sagemaker-geospatial get-tile",
	"sagemaker-runtime invoke-endpoint", "schemas get-code-binding-source", "tnb get-sol-function-package-content",
	"tnb get-sol-function-package-descriptor", "tnb get-sol-network-package-content",
	"tnb get-sol-network-package-descriptor", "workmailmessageflow get-raw-message-content",
}

// awsAsks are the commands that ask past Bash(aws:*).
var awsAsks = []leadCommand{
	{"configure set", kAsk, "sets a key of aws's configuration that runs a program at later calls or names a file aws reads",
		awsConfigRuns},
	{"configure import", kAsk, "writes aws's credentials from a file", nil},
	{"configure add-model", kAsk, "adds a service model aws loads", nil},
	{"emr ssh", kAsk, "runs ssh here", nil},
	{"emr sock", kAsk, "runs ssh here", nil},
	{"emr put", kAsk, "runs scp here, which sends a file of this machine", nil},
	{"emr get", kAsk, "runs scp here, which writes a file of this machine", nil},
	{"opsworks register", kAsk, "runs ssh and commands here", nil},
}

// awsConfigRuns are the keys of aws's configuration (aws help config-vars)
// that run a program at later calls, or name a file aws reads, which
// aws configure set asks for; the rest (region, output, ...) are settings.
var awsConfigRuns = []string{"credential_process", "cli_pager", "ca_bundle", "credential_source", "web_identity_token_file",
	"role_arn", "source_profile", "sso_start_url", "sso_session", "services", "endpoint_url", "cli_history", "tcp_keepalive"}

// awsSpec is aws's.
var awsSpec = sync.OnceValue(func() *spec {
	g := grammar{permute: true}
	lead := append([]leadCommand(nil), awsAsks...)
	for _, op := range awsStreamingOps {
		lead = append(lead, leadCommand{words: op, kind: kOutfile})
	}
	s3 := func(name string, r []optRow, ops kind) *spec {
		return &spec{name: "aws s3 " + name, grammar: g, rows: r, joined: join(awsGlobalRows), operands: ops}
	}
	s3subs := map[string]*spec{"cp": s3("cp", awsS3CpRows, kURLCopy), "mv": s3("mv", awsS3MvRows, kURLCopy),
		"sync": s3("sync", awsS3SyncRows, kURLCopy), "rm": s3("rm", awsS3RmRows, kUnknown),
		"ls": s3("ls", awsS3LsRows, kUnknown), "mb": s3("mb", awsS3MbRows, kUnknown), "rb": s3("rb", awsS3RbRows, kUnknown),
		"presign": s3("presign", awsS3PresignRows, kUnknown), "website": s3("website", awsS3WebsiteRows, kUnknown)}
	return (&spec{name: "aws", grammar: g, rows: awsGlobalRows, leadCommands: lead, paramFiles: awsParamFiles, expandsPaths: true,
		subs: map[string]*spec{"s3": {name: "aws s3", grammar: g, rows: awsGlobalRows, subs: s3subs}}}).compile()
})

// awsParamFiles are the prefixes of aws's parameter files.
var awsParamFiles = []string{"file://", "fileb://"}
