package plots

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
)

// DPI is the resolution of the PNG files written by Save.
const DPI = 300

// Save writes fig as base.png (DPI dots per inch) and base.pdf (fonts
// embedded); an extension .png or .pdf on base is dropped first. Each file is
// written to a temporary file in the same directory and renamed into place, so
// a reader never sees a partial figure. The size is fig's own (Sizer) or
// DefaultWidth×DefaultHeight.
func Save(fig Drawer, base string) error {
	w, h := DefaultWidth, DefaultHeight
	if s, ok := fig.(Sizer); ok {
		w, h = s.Size()
	}
	return SaveSize(fig, w, h, base)
}

// SaveSize is Save with an explicit size.
func SaveSize(fig Drawer, w, h vg.Length, base string) error {
	if w <= 0 || h <= 0 {
		panic(fmt.Sprintf("plots: figure size %v×%v", w, h))
	}
	if ext := strings.ToLower(filepath.Ext(base)); ext == ".png" || ext == ".pdf" {
		base = strings.TrimSuffix(base, filepath.Ext(base))
	}

	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(DPI))
	fig.Draw(draw.New(img))
	if err := writeAtomic(base+".png", vgimg.PngCanvas{Canvas: img}); err != nil {
		return err
	}

	doc := vgpdf.New(w, h)
	doc.EmbedFonts(true)
	fig.Draw(draw.New(doc))
	return writeAtomic(base+".pdf", doc)
}

// writeAtomic writes wt to a temporary file next to path and renames it to
// path.
func writeAtomic(path string, wt io.WriterTo) (err error) {
	dir, name := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+name+".*.tmp")
	if err != nil {
		return fmt.Errorf("plots: save %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = wt.WriteTo(f); err != nil {
		return fmt.Errorf("plots: save %s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("plots: save %s: %w", path, err)
	}
	if err = os.Chmod(f.Name(), 0o644); err != nil {
		return fmt.Errorf("plots: save %s: %w", path, err)
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("plots: save %s: %w", path, err)
	}
	return nil
}
