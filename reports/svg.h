#ifndef SVG_H
#define SVG_H
/* svg: the report's charts as standalone SVG 1.1 files (no script, no
 * external reference, fonts by generic family), readable at 820 x 380:
 * stacked bars (shares over the years), grouped bars (side by side) and
 * lines (a series per cluster over the months) with vertical markers for
 * events; on top of any of them a shaded band (a range) and one more line
 * (capacity) on the same scale. A title, a y axis with round ticks and the
 * unit, x labels (thinned when crowded), a legend as wide as its longest
 * entry (the plot takes the rest). Series take colors[s] when given, else
 * the palette's s-th colour; event markers are SVG_MARK_COLOUR, a colour
 * no series takes. Every series element carries class="series" and
 * data-series="NAME" (the band "band", the line "line") for readers of the
 * file. Text from data is escaped for XML and cleaned of control
 * characters. Writes only to the FILE* given. */

#include <stddef.h>
#include <stdio.h>

typedef enum SvgKind { SVG_STACKED, SVG_BARS, SVG_LINES } SvgKind;

/* A vertical marker at category x (0-based, may be fractional), shown
 * with its number and, in the legend, its label. */
typedef struct SvgMark {
    double x;
    int num;
    const char *label;
} SvgMark;

typedef struct SvgChart {
    SvgKind kind;
    const char *title;
    const char *unit;              /* y axis: "%", "GPUs", "GPU-h" */
    const char *const *x;          /* nx category labels */
    size_t nx;
    const char *const *series;     /* ns series names */
    size_t ns;
    const double *v;               /* ns x nx: v[s * nx + i]; NaN: no value */
    const SvgMark *marks;          /* may be NULL */
    size_t nmarks;
    double ymax;                   /* 0: from the data */
    const char *const *colors;     /* ns colours ("#rrggbb"); NULL: the palette */
    const double *band_lo, *band_hi; /* nx each, NaN: none; NULL: no band */
    const char *band_name;
    const double *line;            /* nx, NaN: none; NULL: no extra line */
    const char *line_name;
} SvgChart;

#define SVG_MARK_COLOUR "#9400d3"  /* event markers: no series colour */
#define SVG_BAND_COLOUR "#525252"  /* the band's fill (opacity 0.3) */
#define SVG_LINE_COLOUR "#000000"  /* the extra line */

/* The palette's i-th colour (i modulo its size, SVG_NPALETTE). Static. */
#define SVG_NPALETTE 20
const char *svg_colour(size_t i);

void svg_write(FILE *out, const SvgChart *c);

/* Text escaped for XML (& < > " '), control characters as '?'. */
void svg_text(FILE *out, const char *s);

#endif
