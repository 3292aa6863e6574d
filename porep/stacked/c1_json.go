// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A small schema-driven JSON reader for C1: one pass, no reflection, every
// error names the JSON path and byte offset. Like serde (without
// deny_unknown_fields) it skips unknown object keys; it rejects duplicate and
// missing fields as serde does.

// jpath is a lazily formatted JSON path: a key (key != "") or an array index.
type jpath struct {
	parent *jpath
	key    string
	idx    int
}

func (p *jpath) String() string {
	if p == nil {
		return "$"
	}
	var parts []*jpath
	for q := p; q != nil; q = q.parent {
		parts = append(parts, q)
	}
	var sb strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		q := parts[i]
		if q.key != "" {
			if sb.Len() > 0 {
				sb.WriteByte('.')
			}
			sb.WriteString(q.key)
		} else {
			fmt.Fprintf(&sb, "[%d]", q.idx)
		}
	}
	return sb.String()
}

func (p *jpath) k(key string) *jpath { return &jpath{parent: p, key: key} }
func (p *jpath) i(i int) *jpath      { return &jpath{parent: p, idx: i} }

// ParseError is returned for malformed C1 input. Path is the JSON path of the
// offending value (e.g. vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs),
// Offset its byte offset (−1 for semantic errors found after parsing).
type ParseError struct {
	Path   string
	Offset int
	Msg    string
}

func (e *ParseError) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("c1: %s (byte %d): %s", e.Path, e.Offset, e.Msg)
	}
	return fmt.Sprintf("c1: %s: %s", e.Path, e.Msg)
}

type jreader struct {
	data  []byte
	pos   int
	depth int
}

const maxDepth = 64

func (r *jreader) fail(path *jpath, format string, args ...any) error {
	return &ParseError{Path: path.String(), Offset: r.pos, Msg: fmt.Sprintf(format, args...)}
}

func (r *jreader) ws() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

func (r *jreader) peek() byte {
	r.ws()
	if r.pos >= len(r.data) {
		return 0
	}
	return r.data[r.pos]
}

func (r *jreader) expect(path *jpath, c byte, what string) error {
	if r.peek() != c {
		return r.fail(path, "expected %s, found %s", what, r.describe())
	}
	r.pos++
	return nil
}

func (r *jreader) describe() string {
	if r.pos >= len(r.data) {
		return "end of input"
	}
	c := r.data[r.pos]
	switch {
	case c == '"':
		return "a string"
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '-' || (c >= '0' && c <= '9'):
		return "a number"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	}
	return strconv.Quote(string(c))
}

func (r *jreader) str(path *jpath) (string, error) {
	if r.peek() != '"' {
		return "", r.fail(path, "expected a string, found %s", r.describe())
	}
	start := r.pos
	r.pos++
	escaped := false
	for r.pos < len(r.data) {
		c := r.data[r.pos]
		switch {
		case c == '\\':
			escaped = true
			r.pos += 2
			continue
		case c == '"':
			r.pos++
			raw := r.data[start:r.pos]
			if !escaped {
				if !utf8.Valid(raw) {
					return "", r.fail(path, "invalid UTF-8 in string")
				}
				return string(raw[1 : len(raw)-1]), nil
			}
			s, err := strconv.Unquote(string(raw))
			if err != nil {
				return "", r.fail(path, "invalid string escape")
			}
			return s, nil
		case c < 0x20:
			return "", r.fail(path, "control character in string")
		}
		r.pos++
	}
	return "", r.fail(path, "unterminated string")
}

// uint reads a non-negative integer ≤ max.
func (r *jreader) uint(path *jpath, max uint64) (uint64, error) {
	v, msg, off := r.uintRaw(max)
	if msg != "" {
		return 0, &ParseError{Path: path.String(), Offset: off, Msg: msg}
	}
	return v, nil
}

// uintRaw is uint without a path: it returns an error message and offset.
func (r *jreader) uintRaw(max uint64) (uint64, string, int) {
	r.ws()
	start := r.pos
	var v uint64
	for r.pos < len(r.data) && r.data[r.pos] >= '0' && r.data[r.pos] <= '9' {
		d := uint64(r.data[r.pos] - '0')
		if v > (max-d)/10 {
			return 0, fmt.Sprintf("integer out of range (max %d)", max), start
		}
		v = v*10 + d
		r.pos++
	}
	if r.pos == start {
		return 0, "expected an unsigned integer, found " + r.describe(), start
	}
	if r.pos < len(r.data) {
		switch r.data[r.pos] {
		case '.', 'e', 'E':
			return 0, "expected an unsigned integer, found a fractional number", start
		}
	}
	if r.data[start] == '0' && r.pos-start > 1 {
		return 0, "leading zero in number", start
	}
	return v, "", 0
}

func (r *jreader) literal(path *jpath, lit string) bool {
	r.ws()
	if strings.HasPrefix(string(r.data[r.pos:min(len(r.data), r.pos+len(lit))]), lit) {
		r.pos += len(lit)
		return true
	}
	return false
}

// object iterates the members of an object; fields lists the known keys
// (duplicates of those are rejected, others are skipped). With fields nil and
// fn non-nil, fn sees every key (enum variants).
func (r *jreader) object(path *jpath, fields []string, fn func(key string, kp *jpath) error) error {
	if err := r.expect(path, '{', "an object"); err != nil {
		return err
	}
	r.depth++
	if r.depth > maxDepth {
		return r.fail(path, "nesting too deep")
	}
	defer func() { r.depth-- }()
	var seen uint64
	if r.peek() == '}' {
		r.pos++
		return nil
	}
	for {
		key, err := r.str(path)
		if err != nil {
			return err
		}
		if err := r.expect(path.k(key), ':', "':'"); err != nil {
			return err
		}
		known := -1
		for i, f := range fields {
			if f == key {
				known = i
				break
			}
		}
		kp := path.k(key)
		if fields == nil && fn != nil {
			if err := fn(key, kp); err != nil {
				return err
			}
		} else if known >= 0 {
			if seen&(1<<known) != 0 {
				return r.fail(kp, "duplicate field %q", key)
			}
			seen |= 1 << known
			if err := fn(key, kp); err != nil {
				return err
			}
		} else if err := r.skip(kp); err != nil {
			return err
		}
		switch r.peek() {
		case ',':
			r.pos++
		case '}':
			r.pos++
			return nil
		default:
			return r.fail(path, "expected ',' or '}' in object, found %s", r.describe())
		}
	}
}

// array iterates the elements of an array.
func (r *jreader) array(path *jpath, fn func(i int, ip *jpath) error) error {
	if err := r.expect(path, '[', "an array"); err != nil {
		return err
	}
	r.depth++
	if r.depth > maxDepth {
		return r.fail(path, "nesting too deep")
	}
	defer func() { r.depth-- }()
	if r.peek() == ']' {
		r.pos++
		return nil
	}
	for i := 0; ; i++ {
		if err := fn(i, path.i(i)); err != nil {
			return err
		}
		switch r.peek() {
		case ',':
			r.pos++
		case ']':
			r.pos++
			return nil
		default:
			return r.fail(path, "expected ',' or ']' in array, found %s", r.describe())
		}
	}
}

// skip consumes any JSON value.
func (r *jreader) skip(path *jpath) error {
	switch c := r.peek(); {
	case c == '{':
		return r.object(path, nil, nil)
	case c == '[':
		return r.array(path, func(_ int, ip *jpath) error { return r.skip(ip) })
	case c == '"':
		_, err := r.str(path)
		return err
	case c == 't':
		if r.literal(path, "true") {
			return nil
		}
	case c == 'f':
		if r.literal(path, "false") {
			return nil
		}
	case c == 'n':
		if r.literal(path, "null") {
			return nil
		}
	case c == '-' || (c >= '0' && c <= '9'):
		start := r.pos
		for r.pos < len(r.data) && strings.IndexByte("+-0123456789.eE", r.data[r.pos]) >= 0 {
			r.pos++
		}
		if _, err := strconv.ParseFloat(string(r.data[start:r.pos]), 64); err != nil && !errors.Is(err, strconv.ErrRange) {
			return &ParseError{Path: path.String(), Offset: start, Msg: "malformed number"}
		}
		return nil
	}
	return r.fail(path, "expected a JSON value, found %s", r.describe())
}
