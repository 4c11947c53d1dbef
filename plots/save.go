package plots

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/ccn-go/ccn/internal/atomicfile"

	"codeberg.org/go-pdf/fpdf"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
)

// DPI is the resolution of the PNG files written by Save.
const DPI = 300

// pdfDate is the creation and modification date written into every PDF,
// in place of the time of drawing, so that the same results give the same
// bytes (the PNG files carry no date).
var pdfDate = time.Unix(0, 0).UTC()

// pdfDefaults sets the PDF writer's defaults once: pdfDate and resources
// listed in a sorted order.
var pdfDefaults = sync.OnceFunc(func() {
	fpdf.SetDefaultCreationDate(pdfDate)
	fpdf.SetDefaultModificationDate(pdfDate)
	fpdf.SetDefaultCatalogSort(true)
})

// Save writes fig as base.png (DPI dots per inch) and base.pdf (fonts
// embedded, dated 1970-01-01, the Unix epoch); an extension .png or .pdf on
// base is dropped first. Each file is written to a temporary file in the
// same directory and renamed into place, so a reader never sees a partial
// figure. The size is fig's own (Sizer) or
// DefaultWidth×DefaultHeight. A *plot.Plot is drawn with its legend outside
// the axes, on their right, like every panel of a Grid.
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

	if p, ok := fig.(*plot.Plot); ok {
		fig = framed{p}
	}
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(DPI))
	fig.Draw(draw.New(img))
	if err := writeTo(base+".png", vgimg.PngCanvas{Canvas: img}); err != nil {
		return err
	}

	pdfDefaults()
	doc := vgpdf.New(w, h)
	doc.EmbedFonts(true)
	fig.Draw(draw.New(doc))
	return writeTo(base+".pdf", doc)
}

// writeTo writes wt to path atomically (package atomicfile).
func writeTo(path string, wt io.WriterTo) error {
	err := atomicfile.Write(path, 0o644, func(w io.Writer) error {
		_, err := wt.WriteTo(w)
		return err
	})
	if err != nil {
		return fmt.Errorf("plots: save %s: %w", path, err)
	}
	return nil
}
