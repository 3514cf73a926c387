package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolgate/toolgate/bashguard/runner"
	"github.com/toolgate/toolgate/internal/safefile"
)

// The namespace probe, kept for the boot. Whether the kernel gives the
// user the launcher's namespaces is asked by starting /bin/true in them,
// a few milliseconds: more than the rest of a hook call. The answer is
// kept in the state directory for the boot, the user and the user
// namespace it was given to (a container that shares the home directory
// is another namespace, and may be refused what the host is given), so
// that the user's sessions ask once a boot. A kept
// answer that no longer holds fails closed either way: a "no" keeps
// asking the person, a "yes" leaves it to the launcher, which refuses to
// run a command it cannot confine.

// maxKeptBytes bounds the kept answers' file.
const maxKeptBytes = 16 << 10

// keptNS is the file of the kept answers.
type keptNS struct {
	// Boot, UID and UserNS are what the answers were given for: the
	// kernel's boot_id, the user and the user namespace the hook ran in.
	Boot   string `json:"boot"`
	UserNS string `json:"userns"`
	UID    int    `json:"uid"`
	// Why holds the probe's answer by "net" (a network namespace too) and
	// "nonet": "" when the kernel gave the namespaces.
	Why map[string]string `json:"why"`
}

// nsKeptPath is the file of the kept answers, one for the state
// directory: they hold for the boot and the user they name, whichever
// session asks. "" without a state directory.
func nsKeptPath(stateDir string) string {
	if stateDir == "" {
		return ""
	}
	return filepath.Join(stateDir, "namespaces")
}

// keptNamespaces is runner.Shell.Namespaces for the session's file at
// path: the kept answer when there is one for this boot and user, else
// the probe's, then kept. Nil without a path: the runner probes.
func keptNamespaces(path string) func(newNet bool) string {
	return keptNamespacesOf(path, bootID, userNS)
}

// keptNamespacesOf is keptNamespaces with this boot's and this process's
// user namespace's names read by boot and ns (a warm process reads them
// once: neither changes while it lives).
func keptNamespacesOf(path string, boot, ns func() string) func(newNet bool) string {
	if path == "" {
		return nil
	}
	bootID, userNS := boot, ns
	return func(newNet bool) string {
		key := "nonet"
		if newNet {
			key = "net"
		}
		boot := bootID()
		k := keptNS{Boot: boot, UID: os.Getuid(), UserNS: userNS()}
		if data, err := safefile.ReadPrivate(path, maxKeptBytes); err == nil {
			var f keptNS
			if json.Unmarshal(data, &f) == nil && f.Boot == k.Boot && f.UID == k.UID && f.UserNS == k.UserNS && boot != "" {
				if why, ok := f.Why[key]; ok {
					return why
				}
				k.Why = f.Why
			}
		}
		why := runner.ProbeNamespaces(newNet)
		if boot == "" {
			return why // nothing to key the answer on
		}
		if k.Why == nil {
			k.Why = map[string]string{}
		}
		k.Why[key] = why
		_ = writeKept(path, k) // unkept, the next call probes again
		return why
	}
}

// userNS names the user namespace this process runs in
// ("user:[4026531837]"), "" where /proc does not say.
func userNS() string {
	ns, _ := os.Readlink("/proc/self/ns/user")
	return ns
}

// bootID is the kernel's identifier of this boot, "" where it has none.
func bootID() string {
	b, err := safefile.Read("/proc/sys/kernel/random/boot_id", 64)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// writeKept replaces the file at path with k, whole.
func writeKept(path string, k keptNS) error {
	tmp, err := writeStateTemp(filepath.Dir(path), ".ns-", k)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	return os.Rename(tmp, path)
}
