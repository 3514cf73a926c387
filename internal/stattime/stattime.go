// Package stattime reads a stat result's modification and change times,
// which each system's syscall.Stat_t spells in its own way (Mtim on
// Linux, Mtimespec on Darwin and the BSDs that follow it): one pair of
// functions, one file per spelling, for every package that stamps a file
// by its times.
package stattime
