#include "reports/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/anon.h"
#include "reports/rtext.h"

enum { W = 820, H = 380, LEFT = 64, RIGHT_MAX = 250, RIGHT_MIN = 110, TOP = 40, BOTTOM = 64 };
#define PW (W - LEFT - legend_width(c)) /* the plot's width: every user has the chart c */
#define PH (H - TOP - BOTTOM)

static int legend_width(const SvgChart *c);

static const char *const palette[SVG_NPALETTE] = {
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1",
    "#ff9da7", "#9c755f", "#bab0ac", "#1f77b4", "#8c564b", "#17becf", "#bcbd22",
    "#aec7e8", "#ffbb78", "#98df8a", "#c5b0d5", "#c49c94", "#dbdb8d"};

const char *svg_colour(size_t i)
{
    return palette[i % SVG_NPALETTE];
}

static const char *colour(const SvgChart *c, size_t s)
{
    return c->colors && c->colors[s] ? c->colors[s] : svg_colour(s);
}

static void series_attr(FILE *out, const char *name)
{
    fputs(" class=\"series\" data-series=\"", out);
    svg_text(out, name);
    fputc('"', out);
}

static void xml_char(FILE *out, const char *c, size_t len)
{
    switch (*c) {
    case '&': fputs("&amp;", out); break;
    case '<': fputs("&lt;", out); break;
    case '>': fputs("&gt;", out); break;
    case '"': fputs("&quot;", out); break;
    case '\'': fputs("&apos;", out); break;
    default: fwrite(c, 1, len, out);
    }
}

void svg_text(FILE *out, const char *s)
{
    char *scrubbed = anon_scrub_current() ? anon_scrub_text(anon_scrub_current(), s) : NULL;
    rtext_put(out, scrubbed ? scrubbed : s, xml_char);
    free(scrubbed);
}

static double value(const SvgChart *c, size_t s, size_t i)
{
    double v = c->v[s * c->nx + i];
    return isnan(v) ? NAN : v;
}

/* The largest value to show: the tallest stack or the largest value. */
static double data_max(const SvgChart *c)
{
    double m = 0;
    for (size_t i = 0; i < c->nx; i++) {
        double stack = 0;
        for (size_t s = 0; s < c->ns; s++) {
            double v = value(c, s, i);
            if (isnan(v))
                continue;
            stack += v > 0 ? v : 0;
            if (v > m)
                m = v;
        }
        if (c->kind == SVG_STACKED && stack > m)
            m = stack;
        if (c->band_hi && !isnan(c->band_hi[i]) && c->band_hi[i] > m)
            m = c->band_hi[i];
        if (c->line && !isnan(c->line[i]) && c->line[i] > m)
            m = c->line[i];
    }
    return m;
}

/* A round tick step giving about five ticks up to max. */
static double tick_step(double max)
{
    double raw = max / 5, mag = pow(10, floor(log10(raw)));
    double f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * mag;
}

static double ypos(double v, double top)
{
    return TOP + PH - (v / top) * PH;
}

static void axes(FILE *out, const SvgChart *c, double top, double step)
{
    for (double t = 0; t <= top + step / 2; t += step) {
        double y = ypos(t, top);
        fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", LEFT,
                y, LEFT + PW, y);
        fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\">%g</text>\n",
                LEFT - 6, y + 4, t);
    }
    fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", LEFT, TOP,
            LEFT, TOP + PH);
    fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", LEFT,
            TOP + PH, LEFT + PW, TOP + PH);
    fprintf(out, "<text x=\"14\" y=\"%d\" font-size=\"12\" transform=\"rotate(-90 14 %d)\" "
                 "text-anchor=\"middle\">", TOP + PH / 2, TOP + PH / 2);
    svg_text(out, c->unit ? c->unit : "");
    fputs("</text>\n", out);
}

static double xcenter(const SvgChart *c, double i)
{
    return LEFT + (i + 0.5) * PW / (double)c->nx;
}

static void xlabels(FILE *out, const SvgChart *c)
{
    size_t every = c->nx > 12 ? (c->nx + 11) / 12 : 1;
    for (size_t i = 0; i < c->nx; i += every) {
        double x = xcenter(c, (double)i);
        fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"end\" "
                     "transform=\"rotate(-35 %.1f %d)\">", x, TOP + PH + 16, x, TOP + PH + 16);
        svg_text(out, c->x[i]);
        fputs("</text>\n", out);
    }
}

static void bars(FILE *out, const SvgChart *c, double top)
{
    double slot = PW / (double)c->nx, bw = slot * 0.7;
    for (size_t i = 0; i < c->nx; i++) {
        double base = 0, x0 = LEFT + i * slot + (slot - bw) / 2;
        for (size_t s = 0; s < c->ns; s++) {
            double v = value(c, s, i);
            if (isnan(v) || v <= 0)
                continue;
            double x = x0, w = bw, y0 = base;
            if (c->kind == SVG_BARS) {
                w = bw / (double)c->ns;
                x = x0 + s * w;
                y0 = 0;
            }
            double y1 = ypos(y0 + v, top), y2 = ypos(y0, top);
            fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"",
                    x, y1, w > 1 ? w - 0.5 : w, y2 - y1, colour(c, s));
            series_attr(out, c->series[s]);
            fputs("><title>", out);
            svg_text(out, c->series[s]);
            fprintf(out, ": %.4g</title></rect>\n", v);
            if (c->kind == SVG_STACKED)
                base += v;
        }
    }
}

static void lines(FILE *out, const SvgChart *c, double top)
{
    for (size_t s = 0; s < c->ns; s++) {
        int pen = 0;
        fprintf(out, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"2\"", colour(c, s));
        series_attr(out, c->series[s]);
        fputs(" d=\"", out);
        for (size_t i = 0; i < c->nx; i++) {
            double v = value(c, s, i);
            if (isnan(v)) {
                pen = 0;
                continue;
            }
            fprintf(out, "%s%.1f %.1f ", pen ? "L" : "M", xcenter(c, (double)i), ypos(v, top));
            pen = 1;
        }
        fputs("\"/>\n", out);
    }
}

/* The band: a shaded area from lo to hi over each run of categories that
 * have both, reaching a third of a slot past its first and last. */
static void band(FILE *out, const SvgChart *c, double top)
{
    if (!c->band_lo || !c->band_hi)
        return;
    double slot = PW / (double)c->nx;
    for (size_t i = 0; i < c->nx;) {
        if (isnan(c->band_lo[i]) || isnan(c->band_hi[i])) {
            i++;
            continue;
        }
        size_t j = i;
        while (j + 1 < c->nx && !isnan(c->band_lo[j + 1]) && !isnan(c->band_hi[j + 1]))
            j++;
        fprintf(out, "<path fill=\"%s\" fill-opacity=\"0.3\" stroke=\"%s\" "
                     "stroke-dasharray=\"2 2\"", SVG_BAND_COLOUR, SVG_BAND_COLOUR);
        series_attr(out, "band");
        fputs(" d=\"", out);
        for (size_t k = i; k <= j; k++) { /* upper edge, left to right */
            double x = xcenter(c, (double)k), y = ypos(c->band_hi[k], top);
            if (k == i)
                fprintf(out, "M%.1f %.1f ", x - slot / 3, y);
            fprintf(out, "L%.1f %.1f ", x, y);
            if (k == j)
                fprintf(out, "L%.1f %.1f ", x + slot / 3, y);
        }
        for (size_t k = j + 1; k-- > i;) { /* lower edge, right to left */
            double x = xcenter(c, (double)k), y = ypos(c->band_lo[k], top);
            if (k == j)
                fprintf(out, "L%.1f %.1f ", x + slot / 3, y);
            fprintf(out, "L%.1f %.1f ", x, y);
            if (k == i)
                fprintf(out, "L%.1f %.1f ", x - slot / 3, y);
        }
        fputs("Z\"/>\n", out);
        i = j + 1;
    }
}

/* The extra line (capacity), with a dot at each value. */
static void extra_line(FILE *out, const SvgChart *c, double top)
{
    if (!c->line)
        return;
    int pen = 0;
    fprintf(out, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\"", SVG_LINE_COLOUR);
    series_attr(out, "line");
    fputs(" d=\"", out);
    for (size_t i = 0; i < c->nx; i++) {
        if (isnan(c->line[i])) {
            pen = 0;
            continue;
        }
        fprintf(out, "%s%.1f %.1f ", pen ? "L" : "M", xcenter(c, (double)i), ypos(c->line[i], top));
        pen = 1;
    }
    fputs("\"/>\n", out);
}

static void marks(FILE *out, const SvgChart *c)
{
    for (size_t m = 0; m < c->nmarks; m++) {
        double x = xcenter(c, c->marks[m].x);
        fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
                     "stroke-dasharray=\"4 3\" class=\"mark\"/>\n", x, TOP, x, TOP + PH,
                SVG_MARK_COLOUR);
        fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" fill=\"" SVG_MARK_COLOUR "\">%d</text>\n",
                x + 2, TOP + 10 + (int)(m % 3) * 11, c->marks[m].num);
    }
}

#define LABEL_LINE 36 /* characters of an event's label a line: the legend's width */

/* Event num's label at (x, y), wrapped at spaces into up to 3 lines of
 * LABEL_LINE characters (the rest cut); returns the y of its last line. */
static int mark_label(FILE *out, int x, int y, int num, const char *label)
{
    char text[3 * LABEL_LINE + 1];
    rtext_clean(text, sizeof text, label ? label : "");
    const char *p = text;
    for (int line = 0; line < 3 && (*p || line == 0); line++) {
        size_t n = strlen(p);
        if (n > LABEL_LINE) { /* break at the last space that fits */
            n = LABEL_LINE;
            while (n > LABEL_LINE / 2 && p[n] != ' ')
                n--;
            if (p[n] != ' ')
                n = LABEL_LINE;
            while (n > 0 && ((unsigned char)p[n] & 0xC0) == 0x80)
                n--; /* not inside a UTF-8 character */
        }
        char piece[LABEL_LINE + 1];
        memcpy(piece, p, n);
        piece[n] = '\0';
        if (line > 0)
            y += 12;
        fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"" SVG_MARK_COLOUR "\">", x + (line ? 14 : 0),
                y + 12);
        if (line == 0)
            fprintf(out, "%d: ", num);
        svg_text(out, piece);
        fputs("</text>\n", out);
        p += n;
        while (*p == ' ')
            p++;
    }
    return y;
}

/* 1 when series s has a value other than 0 (a series of zeros or gaps
 * stays out of the legend). */
static int has_value(const SvgChart *c, size_t s)
{
    for (size_t i = 0; i < c->nx; i++)
        if (!isnan(value(c, s, i)) && value(c, s, i) != 0)
            return 1;
    return 0;
}

static int has_band(const SvgChart *c)
{
    for (size_t i = 0; i < c->nx; i++)
        if (!isnan(c->band_lo[i]) && !isnan(c->band_hi[i]))
            return 1;
    return 0;
}

static void legend_entry(FILE *out, int x, int y, const char *fill, const char *name)
{
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>\n", x, y, fill);
    fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\">", x + 14, y + 9);
    char cut[40];
    rtext_clean(cut, sizeof cut, name);
    svg_text(out, cut);
    fputs("</text>\n", out);
}

/* The legend's width: its longest entry (about 6.5 px a character at 11
 * px), between RIGHT_MIN and RIGHT_MAX; event labels take the most. */
static int legend_width(const SvgChart *c)
{
    size_t most = c->nmarks ? 40 : 0;
    for (size_t s = 0; s < c->ns && s < 16; s++) {
        size_t n = strlen(c->series[s]);
        most = n > most ? n : most;
    }
    if (c->band_name && strlen(c->band_name) > most)
        most = strlen(c->band_name);
    if (c->line_name && strlen(c->line_name) > most)
        most = strlen(c->line_name);
    if (most > 39)
        most = 39;
    int w = 34 + (int)(most * 6.5);
    return w < RIGHT_MIN ? RIGHT_MIN : w > RIGHT_MAX ? RIGHT_MAX : w;
}

static void legend(FILE *out, const SvgChart *c)
{
    int x = LEFT + PW + 14, y = TOP + 4;
    for (size_t s = 0, shown = 0; s < c->ns && shown < 16; s++)
        if (has_value(c, s)) {
            legend_entry(out, x, y, colour(c, s), c->series[s]);
            y += 16;
            shown++;
        }
    if (c->band_lo && c->band_name && has_band(c))
        legend_entry(out, x, y, SVG_BAND_COLOUR, c->band_name), y += 16;
    if (c->line && c->line_name)
        legend_entry(out, x, y, SVG_LINE_COLOUR, c->line_name), y += 16;
    for (size_t m = 0; m < c->nmarks && m < 8; m++, y += 14)
        y = mark_label(out, x, y, c->marks[m].num, c->marks[m].label);
}

void svg_write(FILE *out, const SvgChart *c)
{
    double max = c->ymax > 0 ? c->ymax : data_max(c);
    if (!(max > 0))
        max = 1;
    double step = tick_step(max), top = ceil(max / step - 1e-9) * step;
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
                 "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n",
            W, H, W, H);
    fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", W, H);
    fprintf(out, "<text x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\">", LEFT);
    svg_text(out, c->title ? c->title : "");
    fputs("</text>\n", out);
    axes(out, c, top, step);
    if (c->nx > 0) {
        if (c->kind == SVG_LINES)
            lines(out, c, top);
        else
            bars(out, c, top);
        band(out, c, top);
        extra_line(out, c, top);
        marks(out, c);
        xlabels(out, c);
    }
    legend(out, c);
    fputs("</svg>\n", out);
}
