// Package truncate holds what every place that shortens output for a model
// shares: the marker that stands for the characters cut.
package truncate

import "strconv"

// Marker is the line that stands for cut characters in a shortened output:
// "\n[... N characters cut ...]\n". The runner's output cap and the
// pipeline's output shaping both use it, so a model sees one form.
func Marker(cut int) string {
	return "\n[... " + strconv.Itoa(cut) + " characters cut ...]\n"
}
