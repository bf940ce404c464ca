package searchconfig

import (
	"reflect"
	"strconv"
	"strings"
	"time"
)

// field is one setting as Config's tags declare it, read here from the
// tags themselves, apart from package settings, for the tests that go
// through every setting.
type field struct {
	index    int
	key      string
	values   []string
	min, max string
}

// fields lists Config's settings in declaration order.
var fields = func() []field {
	t := reflect.TypeFor[Config]()
	fs := make([]field, t.NumField())
	for i := range fs {
		tag := t.Field(i).Tag
		fs[i] = field{index: i, key: tag.Get("key"), min: tag.Get("min"), max: tag.Get("max")}
		if v := tag.Get("values"); v != "" {
			fs[i].values = strings.Split(v, "|")
		}
	}
	return fs
}()

// bound returns the number a min or max tag gives: one of the bounds
// this package names, a duration or a number.
func bound(s string) float64 {
	named := map[string]float64{"MaxThreads": MaxThreads, "MaxSims": MaxSims, "MaxNodes": MaxNodes, "Levels": float64(Levels)}
	if b, ok := named[s]; ok {
		return b
	}
	if d, err := time.ParseDuration(s); err == nil && strings.ContainsAny(s, "hms") {
		return float64(d)
	}
	x, _ := strconv.ParseFloat(s, 64)
	return x
}
