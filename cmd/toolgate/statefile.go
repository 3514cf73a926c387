package main

import (
	"encoding/json"
	"errors"
	"os"
)

// writeStateTemp writes v as JSON to a new file in dir (made 0700 when
// missing) whose name starts with prefix, and returns that file's name for
// the caller to put in place (rename, or link to keep a first writer's).
// The caller removes it afterwards; on an error nothing is left behind.
func writeStateTemp(dir, prefix string, v any) (string, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, prefix+"*")
	if err != nil {
		return "", err
	}
	_, werr := f.Write(data)
	if err := errors.Join(werr, f.Close()); err != nil {
		_ = os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}
