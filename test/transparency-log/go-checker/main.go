// Command go-checker checks proofseal's transparency log with Go's own implementation
// (golang.org/x/mod/sumdb/tlog and sumdb/note), written by others. It reads one JSON request a line on
// stdin and answers one JSON line each: {"ok":true,...} or {"ok":false,"error":"..."}.
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type request struct {
	Op      string   `json:"op"`
	Vkey    string   `json:"vkey"`
	Note    string   `json:"note"`
	OldNote string   `json:"oldNote"`
	Size    int64    `json:"size"`
	Root    string   `json:"root"`
	OldSize int64    `json:"oldSize"`
	OldRoot string   `json:"oldRoot"`
	Index   int64    `json:"index"`
	Entry   string   `json:"entry"`
	Proof   []string `json:"proof"`
	URL     string   `json:"url"`
	Indexes []int64  `json:"indexes"`
}

type answer struct {
	Ok      bool     `json:"ok"`
	Error   string   `json:"error,omitempty"`
	Size    int64    `json:"size,omitempty"`
	Root    string   `json:"root,omitempty"`
	Paths   []string `json:"paths,omitempty"`
	Entries int64    `json:"entries,omitempty"`
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			var req request
			var ans answer
			if err := json.Unmarshal(line, &req); err != nil {
				ans = answer{Error: err.Error()}
			} else {
				ans = run(req)
			}
			b, _ := json.Marshal(ans)
			out.Write(append(b, '\n'))
			out.Flush()
		}
		if err != nil {
			return
		}
	}
}

func fail(err error) answer { return answer{Error: err.Error()} }

func run(r request) answer {
	switch r.Op {
	case "note":
		tree, err := openCheckpoint(r.Vkey, r.Note)
		if err != nil {
			return fail(err)
		}
		return answer{Ok: true, Size: tree.N, Root: base64.StdEncoding.EncodeToString(tree.Hash[:])}
	case "inclusion":
		root, err := hash(r.Root)
		proof, err2 := hashes(r.Proof)
		entry, err3 := base64.StdEncoding.DecodeString(r.Entry)
		if err = first(err, err2, err3); err != nil {
			return fail(err)
		}
		if err := tlog.CheckRecord(tlog.RecordProof(proof), r.Size, root, r.Index, tlog.RecordHash(entry)); err != nil {
			return fail(err)
		}
		return answer{Ok: true}
	case "consistency":
		root, err := hash(r.Root)
		oldRoot, err2 := hash(r.OldRoot)
		proof, err3 := hashes(r.Proof)
		if err = first(err, err2, err3); err != nil {
			return fail(err)
		}
		if err := tlog.CheckTree(tlog.TreeProof(proof), r.Size, root, r.OldSize, oldRoot); err != nil {
			return fail(err)
		}
		return answer{Ok: true}
	case "tiles":
		return walkTiles(r)
	}
	return answer{Error: "unknown op " + r.Op}
}

func first(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func hash(s string) (tlog.Hash, error) {
	var h tlog.Hash
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b) != tlog.HashSize {
		return h, fmt.Errorf("bad hash %q", s)
	}
	copy(h[:], b)
	return h, nil
}

func hashes(list []string) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(list))
	for i, s := range list {
		h, err := hash(s)
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}

// openCheckpoint checks the signed note with sumdb/note and reads its tree with tlog.ParseTree (which
// expects Go's own first line, so the origin line, once checked, is put in its place).
func openCheckpoint(vkey, text string) (tlog.Tree, error) {
	v, err := note.NewVerifier(vkey)
	if err != nil {
		return tlog.Tree{}, err
	}
	n, err := note.Open([]byte(text), note.VerifierList(v))
	if err != nil {
		return tlog.Tree{}, err
	}
	lines := strings.SplitN(n.Text, "\n", 2)
	if lines[0] != v.Name() {
		return tlog.Tree{}, fmt.Errorf("origin %q is not the key's name %q", lines[0], v.Name())
	}
	return tlog.ParseTree([]byte("go.sum database tree\n" + lines[1]))
}

// c2spPath is Go's tile path without its height element: tlog-tiles' form.
func c2spPath(t tlog.Tile) string {
	return strings.Replace(t.Path(), fmt.Sprintf("tile/%d/", t.H), "tile/", 1)
}

type httpTiles struct {
	base  string
	paths []string
}

func (h *httpTiles) Height() int { return 8 }

func (h *httpTiles) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, t := range tiles {
		p := c2spPath(t)
		h.paths = append(h.paths, p)
		b, err := get(h.base + "/" + p)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

func (h *httpTiles) SaveTiles([]tlog.Tile, [][]byte) {}

func get(url string) ([]byte, error) {
	res, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		return nil, fmt.Errorf("GET %s: %d", url, res.StatusCode)
	}
	return b, err
}

// walkTiles reads the checkpoint and the tiles of a served log, proves the given indexes' inclusion
// (entries read from the bundles) and, given an older checkpoint, the consistency of the two.
func walkTiles(r request) answer {
	text, err := get(r.URL + "/checkpoint")
	if err != nil {
		return fail(err)
	}
	tree, err := openCheckpoint(r.Vkey, string(text))
	if err != nil {
		return fail(err)
	}
	tiles := &httpTiles{base: r.URL}
	reader := tlog.TileHashReader(tree, tiles)
	if h, err := tlog.TreeHash(tree.N, reader); err != nil || h != tree.Hash {
		return fail(fmt.Errorf("tree hash from tiles: %v", err))
	}
	for _, i := range r.Indexes {
		entry, err := bundleEntry(r.URL, tree.N, i)
		if err != nil {
			return fail(err)
		}
		p, err := tlog.ProveRecord(tree.N, i, reader)
		if err != nil {
			return fail(err)
		}
		if err := tlog.CheckRecord(p, tree.N, tree.Hash, i, tlog.RecordHash(entry)); err != nil {
			return fail(fmt.Errorf("entry %d: %v", i, err))
		}
	}
	if r.OldNote != "" {
		old, err := openCheckpoint(r.Vkey, r.OldNote)
		if err != nil {
			return fail(err)
		}
		p, err := tlog.ProveTree(tree.N, old.N, reader)
		if err != nil {
			return fail(err)
		}
		if err := tlog.CheckTree(p, tree.N, tree.Hash, old.N, old.Hash); err != nil {
			return fail(err)
		}
	}
	return answer{Ok: true, Size: tree.N, Root: base64.StdEncoding.EncodeToString(tree.Hash[:]), Paths: tiles.paths}
}

// bundleEntry reads entry i from its entry bundle (C2SP tlog-tiles: uint16 big-endian lengths).
func bundleEntry(base string, size, i int64) ([]byte, error) {
	t := tlog.Tile{H: 8, L: 0, N: i / 256, W: 256}
	if rest := size - t.N*256; rest < 256 {
		t.W = int(rest)
	}
	p := strings.Replace(c2spPath(t), "tile/0/", "tile/entries/", 1)
	b, err := get(base + "/" + p)
	if err != nil {
		return nil, err
	}
	for k := int64(0); len(b) >= 2; k++ {
		n := int(binary.BigEndian.Uint16(b))
		if len(b) < 2+n {
			return nil, fmt.Errorf("bundle %s cut short", p)
		}
		if k == i%256 {
			return b[2 : 2+n], nil
		}
		b = b[2+n:]
	}
	return nil, fmt.Errorf("entry %d not in bundle %s", i, p)
}
