package bashguard

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A .dockerignore skips what its patterns name, and the trees below a
// directory they name; one with an exception, or a pattern that does not
// parse, is not used.
func TestDockerIgnore(t *testing.T) {
	d := parseDockerIgnore("# secrets\n.env\n/node_modules\n**/*.pem\nbuild/*.log\n\n")
	for rel, skip := range map[string]bool{
		".env": true, "node_modules": true, "node_modules/x/y.js": true, "a/b/k.pem": true, "k.pem": true,
		"build/x.log": true, "build/x.txt": false, "sub/.env": false, "src/main.go": false, ".envrc": false,
	} {
		assert.Equal(t, skip, d.skips(rel), rel)
	}
	assert.Nil(t, parseDockerIgnore(".env\n!.env\n"), "an exception re-includes: the file is not used")
	assert.Nil(t, parseDockerIgnore("[.env\n"), "a pattern that does not parse")
	assert.False(t, dockerIgnore(nil).skips(".env"), "no file skips nothing")
}
