package bashguard

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/toolgate/toolgate/permission"
)

// A list file names the files a command reads: --files0-from=FILE (wc,
// du, sort, find), file -f LIST. The command reads every file it names,
// so each entry goes through the path judge as the command's operands
// do; the list itself is read here, within bounds.

const (
	// maxListBytes bounds the list file read for its entries.
	maxListBytes = 64 << 10
	// maxListEntries bounds the entries judged.
	maxListEntries = 1000
)

// listFile judges a list file p and every entry in it, separated by sep
// (NUL for --files0-from, a newline for file -f).
func (m *cmdCall) listFile(c *verdictAcc, p string, fl wordFlags, who string, sep byte) {
	if fl&wDynamic == 0 && (p == "-" || p == "/dev/stdin" || p == "/dev/fd/0") {
		c.add(permission.Ask, RulePathList, "reads the names of the files to read from its standard input, which is only known at run time", false)
		return
	}
	if fl&wProcIn != 0 {
		c.addf(permission.Ask, RulePathList, "reads the names of the files to read from the output of ", p, ", which is only known at run time", false)
		return
	}
	if !m.readPath(c, p, fl, who) || fl&wGlob != 0 {
		return // refused, or a glob: which list is read is not told
	}
	if m.paths == nil {
		c.addf(permission.Ask, RulePathList, "reads the files named in ", p, " and no path checker is configured", false)
		return
	}
	entries, why := m.readList(p, sep)
	if why != "" {
		c.addf(permission.Ask, RulePathList, "reads the files named in ", p, ", which "+why, false)
		return
	}
	for _, e := range entries {
		m.readPath(c, e, 0, who)
	}
}

// readList reads the entries of the list file p, or says why it cannot.
// Only a regular file is read, opened without blocking, so that a FIFO
// cannot hold the judgement.
func (m *cmdCall) readList(p string, sep byte) ([]string, string) {
	name := p
	if m.dir != "" && !strings.HasPrefix(p, "/") {
		name = strings.TrimSuffix(m.dir, "/") + "/" + p
	} else if !strings.HasPrefix(p, "/") {
		return nil, "cannot be found without a working directory"
	}
	fi, err := os.Stat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "" // the command fails: it reads nothing
	}
	if err != nil {
		return nil, "cannot be read now: " + err.Error()
	}
	if !fi.Mode().IsRegular() {
		return nil, "is not a regular file"
	}
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, "cannot be read now: " + err.Error()
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, "is not a regular file"
	}
	data, err := io.ReadAll(io.LimitReader(f, maxListBytes+1))
	if err != nil {
		return nil, "cannot be read now: " + err.Error()
	}
	if len(data) > maxListBytes {
		return nil, "is longer than " + strconv.Itoa(maxListBytes) + " bytes, too long to check"
	}
	var out []string
	for e := range bytes.SplitSeq(data, []byte{sep}) {
		if len(e) == 0 {
			continue
		}
		if len(out) == maxListEntries {
			return nil, "names more than " + strconv.Itoa(maxListEntries) + " files, too many to check"
		}
		out = append(out, string(e))
	}
	return out, ""
}
