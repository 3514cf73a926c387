// Package installtest holds the README's install lines to what they do:
// its test publishes the working tree under the README's version into a
// file-system module proxy (internal/modproxy), runs those lines against
// it with nothing but the proxy and the local module cache to draw on, and
// runs what they installed. It also holds every place that names the
// release version (the README, the go.mod requirements of the modules of
// the workspace, go.work's replacements, the CHANGELOG) to one version.
package installtest
