#include "tui/canvas.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cp.h"
#include "core/utf8.h"

#define CP_ELLIPSIS 0x2026u

Canvas *canvas_new(int w, int h)
{
    Canvas *c = xcalloc(1, sizeof *c);
    canvas_resize(c, w, h);
    return c;
}

void canvas_free(Canvas *c)
{
    if (!c)
        return;
    free(c->cells);
    free(c);
}

void canvas_resize(Canvas *c, int w, int h)
{
    c->w = w < 1 ? 1 : w;
    c->h = h < 1 ? 1 : h;
    free(c->cells);
    c->cells = xmalloc((size_t)c->w * (size_t)c->h * sizeof *c->cells);
    canvas_clear(c);
}

void canvas_clear(Canvas *c)
{
    size_t n = (size_t)c->w * (size_t)c->h;
    for (size_t i = 0; i < n; i++) {
        c->cells[i].ch = ' ';
        c->cells[i].attr = CV_NORMAL;
    }
}

const CanvasCell *canvas_at(const Canvas *c, int x, int y)
{
    if (x < 0 || y < 0 || x >= c->w || y >= c->h)
        return NULL;
    return &c->cells[(size_t)y * (size_t)c->w + (size_t)x];
}

static CanvasCell *cell(Canvas *c, int x, int y)
{
    if (x < 0 || y < 0 || x >= c->w || y >= c->h)
        return NULL;
    return &c->cells[(size_t)y * (size_t)c->w + (size_t)x];
}

/* Blocks and shades by density; box drawing by direction. */
uint32_t canvas_ascii_of(uint32_t cp)
{
    if (cp < 0x80)
        return cp;
    if (cp >= 0x2581 && cp <= 0x2588) /* ▁..█ */
        return (uint32_t)"_.-=+*##"[cp - 0x2581];
    if (cp >= 0x2589 && cp <= 0x258f) /* ▉..▏ left blocks */
        return '#';
    if (cp >= 0x2800 && cp <= 0x28ff) { /* braille: by the number of dots */
        int dots = __builtin_popcount(cp - 0x2800);
        return dots == 0 ? ' ' : dots <= 2 ? '.' : dots <= 5 ? ':' : '#';
    }
    switch (cp) {
    case 0x2591: return '.';          /* ░ */
    case 0x2592: return ':';          /* ▒ */
    case 0x2593: return '+';          /* ▓ */
    case 0x2500: case 0x2501: return '-';
    case 0x2502: case 0x2503: return '|';
    case 0x250c: case 0x2510: case 0x2514: case 0x2518:
    case 0x251c: case 0x2524: case 0x252c: case 0x2534: case 0x253c: return '+';
    case 0x00b7: return '.';          /* · */
    case CP_ELLIPSIS: return '~';
    case 0x25b2: return '^';          /* ▲ */
    case 0x25bc: return 'v';          /* ▼ */
    case 0x25b6: return '>';          /* ▶ */
    case 0x2191: return '^';
    case 0x2193: return 'v';
    case 0x2192: return '>';
    case 0x2190: return '<';
    case 0x2260: return '!';          /* ≠: not the bar glyph '#' */
    case 0x00d7: return 'x';
    case 0x2014: case 0x2013: return '-';
    default: return '?';
    }
}

/* The code point and width shown for cp in c's mode; width 0 = dropped. */
static int shown(const Canvas *c, uint32_t *cp)
{
    int w = utf8_cp_width(*cp); /* a hostile one: 1, shown as '?' */
    *cp = utf8_cp_clean(*cp);
    if (w == 0)
        return 0;
    if (c->ascii && *cp >= 0x80) {
        *cp = canvas_ascii_of(*cp);
        return 1;
    }
    return w;
}

int canvas_width(const Canvas *c, const char *s)
{
    int w = 0;
    while (s && *s) {
        uint32_t cp = utf8_next(&s);
        w += shown(c, &cp);
    }
    return w;
}

/* Put one shown code point of width cw at (x, y); clears a wide character
 * it half-overwrites. */
static void put_cp(Canvas *c, int x, int y, uint32_t cp, int cw, uint16_t attr)
{
    CanvasCell *k = cell(c, x, y);
    if (!k)
        return;
    if (k->ch == 0 && x > 0)
        cell(c, x - 1, y)->ch = ' ';
    CanvasCell *right = cell(c, x + 1, y);
    if (right && right->ch == 0)
        right->ch = ' ';
    k->ch = cp;
    k->attr = attr;
    if (cw == 2) {
        if (!right) {
            k->ch = ' '; /* no room for the right half */
            return;
        }
        CanvasCell *after = cell(c, x + 2, y);
        if (after && after->ch == 0)
            after->ch = ' ';
        right->ch = 0;
        right->attr = attr;
    }
}

int canvas_text(Canvas *c, int x, int y, int maxw, uint16_t attr, const char *s)
{
    if (!s || maxw <= 0 || y < 0 || y >= c->h)
        return 0;
    char shown_buf[2048];
    if (c->filter)
        s = c->filter(c->filter_ctx, s, shown_buf, sizeof shown_buf);
    int total = canvas_width(c, s);
    int limit = total > maxw ? maxw - 1 : maxw; /* room for the ellipsis */
    int col = 0;
    while (*s) {
        uint32_t cp = utf8_next(&s);
        int cw = shown(c, &cp);
        if (cw == 0)
            continue;
        if (col + cw > limit)
            break;
        put_cp(c, x + col, y, cp, cw, attr);
        col += cw;
    }
    if (total > maxw) {
        uint32_t e = c->ascii ? '~' : CP_ELLIPSIS;
        for (; col < maxw; col++)
            put_cp(c, x + col, y, col == maxw - 1 ? e : ' ', 1, attr);
    }
    return col;
}

int canvas_text_right(Canvas *c, int x, int y, int w, uint16_t attr, const char *s)
{
    char shown_buf[2048];
    if (s && c->filter)
        s = c->filter(c->filter_ctx, s, shown_buf, sizeof shown_buf);
    int tw = canvas_width(c, s);
    if (tw >= w)
        return canvas_text(c, x, y, w, attr, s);
    canvas_fill(c, x, y, w - tw, ' ', attr);
    return w - tw + canvas_text(c, x + w - tw, y, tw, attr, s);
}

int canvas_textf(Canvas *c, int x, int y, int maxw, uint16_t attr, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return canvas_text(c, x, y, maxw, attr, buf);
}

void canvas_fill(Canvas *c, int x, int y, int w, uint32_t cp, uint16_t attr)
{
    uint32_t ch = cp;
    if (shown(c, &ch) != 1)
        ch = '?';
    for (int i = 0; i < w; i++)
        put_cp(c, x + i, y, ch, 1, attr);
}

void canvas_paint(Canvas *c, int x, int y, int w, uint16_t attr)
{
    for (int i = 0; i < w; i++) {
        CanvasCell *k = cell(c, x + i, y);
        if (k)
            k->attr = attr;
    }
}

/* Mean of the known values v[a..b); -1 when none is known. */
static double bucket_mean(const double *v, int a, int b)
{
    double sum = 0;
    int n = 0;
    for (int i = a; i < b; i++) {
        if (v[i] >= 0) {
            sum += v[i];
            n++;
        }
    }
    return n ? sum / n : -1;
}

void canvas_spark(Canvas *c, int x, int y, int w, const double *v, int n, double max_hint,
                  uint16_t attr)
{
    if (w <= 0 || n <= 0)
        return;
    int cols = n < w ? n : w;
    double vals[512];
    if (cols > 512)
        cols = 512;
    double max = max_hint > 0 ? max_hint : 0;
    for (int i = 0; i < cols; i++) {
        int a = (int)((int64_t)i * n / cols), b = (int)((int64_t)(i + 1) * n / cols);
        vals[i] = bucket_mean(v, a, b > a ? b : a + 1);
        if (max_hint <= 0 && vals[i] > max)
            max = vals[i];
    }
    for (int i = 0; i < cols; i++) {
        if (vals[i] < 0) {
            put_cp(c, x + i, y, ' ', 1, attr);
            continue;
        }
        int level = max > 0 ? (int)lround(vals[i] / max * 7.0) : 0;
        if (level > 7)
            level = 7;
        uint32_t cp = 0x2581u + (uint32_t)level;
        shown(c, &cp);
        put_cp(c, x + i, y, cp, 1, attr);
    }
}

void canvas_bar(Canvas *c, int x, int y, int w, double frac, uint16_t attr)
{
    if (w <= 0)
        return;
    if (!(frac > 0))
        frac = 0;
    if (frac > 1)
        frac = 1;
    int eighths = (int)lround(frac * w * 8);
    for (int i = 0; i < w; i++) {
        int e = eighths - i * 8;
        uint32_t cp = ' ';
        if (e >= 8)
            cp = 0x2588; /* █ */
        else if (e > 0)
            cp = 0x2590u - (uint32_t)e; /* ▏=258F (1/8) .. ▉=2589 (7/8) */
        if (c->ascii && cp != ' ')
            cp = '#';
        put_cp(c, x + i, y, cp, 1, attr);
    }
}

uint32_t canvas_shade(double frac)
{
    if (!(frac > 0.02))
        return ' ';
    if (frac < 0.25)
        return 0x2591;
    if (frac < 0.5)
        return 0x2592;
    if (frac < 0.8)
        return 0x2593;
    return 0x2588;
}

char *canvas_row(const Canvas *c, int y, char *buf, size_t n)
{
    size_t o = 0, keep = 0;
    for (int x = 0; x < c->w && y >= 0 && y < c->h; x++) {
        uint32_t cp = c->cells[(size_t)y * (size_t)c->w + (size_t)x].ch;
        if (cp == 0)
            continue;
        char u[4];
        int k = utf8_put(cp, u);
        if (o + (size_t)k + 1 > n)
            break;
        memcpy(buf + o, u, (size_t)k);
        o += (size_t)k;
        if (cp != ' ')
            keep = o;
    }
    if (n)
        buf[keep < n ? keep : n - 1] = '\0';
    return buf;
}
