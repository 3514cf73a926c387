package store_test

import (
	"testing"

	"github.com/toolgate/toolgate/runtime/store"
	"github.com/toolgate/toolgate/runtime/store/storetest"
)

func TestMemory(t *testing.T) {
	storetest.Run(t, func(*testing.T) store.Store { return store.NewMemory() })
}
