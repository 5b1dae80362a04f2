#ifndef SVG_H
#define SVG_H
/* svg: the report's charts as standalone SVG 1.1 files (no script, no
 * external reference, fonts by generic family), readable at 820 x 380:
 * stacked bars (shares over the years), grouped bars (side by side) and
 * lines (a series per cluster over the months) with vertical markers for
 * events. A title, a y axis with round ticks and the unit, x labels
 * (thinned when crowded), a legend. Text from data is escaped for XML and
 * cleaned of control characters. Writes only to the FILE* given. */

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
} SvgChart;

void svg_write(FILE *out, const SvgChart *c);

/* Text escaped for XML (& < > " '), control characters as '?'. */
void svg_text(FILE *out, const char *s);

#endif
