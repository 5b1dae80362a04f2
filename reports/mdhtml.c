#include "reports/mdhtml.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reports/mdtable.h"
#include "reports/rtext.h"

static const char css[] =
    "@page { size: A4 portrait; margin: 14mm 12mm; }\n"
    "body { font-family: sans-serif; font-size: 10pt; line-height: 1.35; max-width: 186mm;\n"
    "  margin: 0 auto; padding: 0; }\n"
    "table { font-size: 8pt; border-collapse: collapse; margin: 0.4em 0 0.8em;\n"
    "  display: table; width: auto; }\n"
    "th, td { padding: 1px 4px; border-bottom: 1px solid #ccc; vertical-align: top; }\n"
    "th { text-align: left; }\n"
    "img, svg { max-width: 100%; height: auto; }\n"
    "h1, h2, h3 { break-after: avoid; page-break-after: avoid; }\n"
    "tr { break-inside: avoid; page-break-inside: avoid; }\n";

const char *mdhtml_css(void)
{
    return css;
}

/* ---- text ---- */

/* Text escaped for HTML, control characters as '?'. */
static void esc(FILE *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t k = rtext_char(s + i);
        if (k == 0 || i + k > n) {
            fputc('?', out);
            i++;
            continue;
        }
        switch (s[i]) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fwrite(s + i, 1, k, out);
        }
        i += k;
    }
}

/* Inline Markdown: \x escapes, **strong**, `code`. */
static void inline_md(FILE *out, const char *s, size_t n)
{
    int strong = 0, code = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\' && i + 1 < n && !code) {
            esc(out, s + i + 1, 1);
            i++;
        } else if (s[i] == '`') {
            fputs(code ? "</code>" : "<code>", out);
            code = !code;
        } else if (!code && s[i] == '*' && i + 1 < n && s[i + 1] == '*') {
            fputs(strong ? "</strong>" : "<strong>", out);
            strong = !strong;
            i++;
        } else {
            size_t k = rtext_char(s + i);
            k = k == 0 || i + k > n ? 1 : k;
            esc(out, s + i, k);
            i += k - 1;
        }
    }
    fputs(code ? "</code>" : "", out);
    fputs(strong ? "</strong>" : "", out);
}

/* ---- lines ---- */

static int starts(const char *s, size_t n, const char *p)
{
    size_t k = strlen(p);
    return n >= k && memcmp(s, p, k) == 0;
}

/* ---- blocks ---- */

/* The YAML title block: the value of title:, subtitle:, date: ("..." or
 * plain), into meta[0..2]. */
typedef struct Meta {
    char v[3][256];
} Meta;

static void yaml_value(const char *s, size_t n, char *dst, size_t cap)
{
    while (n && *s == ' ')
        s++, n--;
    size_t w = 0;
    int quoted = n && *s == '"';
    for (size_t i = quoted; i < n && w + 1 < cap; i++) {
        if (quoted && s[i] == '"')
            break;
        if (quoted && s[i] == '\\' && i + 1 < n)
            i++;
        dst[w++] = s[i];
    }
    dst[w] = '\0';
}

static void read_meta(MdLines *l, Meta *m)
{
    static const char *const keys[] = {"title:", "subtitle:", "date:"};
    const char *s;
    size_t n, save = l->pos;
    memset(m, 0, sizeof *m);
    if (!mdlines_next(l, &s, &n) || n != 3 || memcmp(s, "---", 3) != 0) {
        l->pos = save;
        return;
    }
    while (mdlines_next(l, &s, &n) && !(n == 3 && memcmp(s, "---", 3) == 0))
        for (int k = 0; k < 3; k++)
            if (starts(s, n, keys[k]))
                yaml_value(s + strlen(keys[k]), n - strlen(keys[k]), m->v[k], sizeof m->v[k]);
}

static void table_row(FILE *out, char *const *cells, size_t n, const char *tag, const char *right)
{
    fputs("<tr>", out);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "<%s%s>", tag, right[i] ? " style=\"text-align:right\"" : "");
        inline_md(out, cells[i], strlen(cells[i]));
        fprintf(out, "</%s>", tag);
    }
    fputs("</tr>\n", out);
}

static void table(FILE *out, const MdTable *t)
{
    fputs("<table>\n<thead>", out);
    table_row(out, t->rows[0], t->ncols, "th", t->right);
    fputs("</thead>\n<tbody>\n", out);
    for (size_t r = 1; r < t->nrows; r++)
        table_row(out, t->rows[r], t->ncols, "td", t->right);
    fputs("</tbody>\n</table>\n", out);
}

/* 1 when the line s is an image alone: ![alt](dest). */
static int is_image(const char *s, size_t n)
{
    const char *close = memchr(s, ']', n);
    return close && close + 1 < s + n && close[1] == '(';
}

/* The image line s (is_image) with its SVG file inline. -1 with err when
 * the file cannot be read. */
static int image(FILE *out, const char *s, size_t n, const char *base, CpErr *err)
{
    const char *close = memchr(s, ']', n);
    const char *d = close + 2, *e = s + n - 1;
    if (*d == '<')
        d++, e--;
    size_t pn = strlen(base) + (size_t)(e - d) + 2;
    char *path = xmalloc(pn);
    snprintf(path, pn, "%s/%.*s", base, (int)(e - d), d);
    FILE *f = fopen(path, "rb");
    if (!f) {
        cp_err_set(err, "%s: cannot read: %s", path, strerror(errno));
        free(path);
        return -1;
    }
    free(path);
    fputs("<figure>\n", out);
    char buf[8192];
    size_t got, first = 1;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
        const char *p = buf;
        if (first && got > 5 && memcmp(buf, "<?xml", 5) == 0) {
            const char *q = memchr(buf, '>', got);
            if (q)
                got -= (size_t)(q + 1 - p), p = q + 1;
        }
        first = 0;
        fwrite(p, 1, got, out);
    }
    fclose(f);
    fputs("<figcaption>", out);
    inline_md(out, s + 2, (size_t)(close - s - 2));
    fputs("</figcaption>\n</figure>\n", out);
    return 0;
}

static void heading(FILE *out, const char *s, size_t n)
{
    int level = 0;
    while ((size_t)level < n && s[level] == '#')
        level++;
    fprintf(out, "<h%d>", level);
    inline_md(out, s + level + 1, n - (size_t)level - 1);
    fprintf(out, "</h%d>\n", level);
}

static void head(FILE *out, const Meta *m)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>",
          out);
    esc(out, m->v[0], strlen(m->v[0]));
    fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", css);
    if (m->v[0][0]) {
        fputs("<header>\n<h1 class=\"title\">", out);
        esc(out, m->v[0], strlen(m->v[0]));
        fputs("</h1>\n", out);
        for (int k = 1; k < 3; k++)
            if (m->v[k][0]) {
                fprintf(out, "<p class=\"%s\">", k == 1 ? "subtitle" : "date");
                esc(out, m->v[k], strlen(m->v[k]));
                fputs("</p>\n", out);
            }
        fputs("</header>\n", out);
    }
}

int mdhtml(FILE *out, const char *md, size_t len, const char *base, CpErr *err)
{
    MdLines l = {md, len, 0};
    Meta m;
    read_meta(&l, &m);
    head(out, &m);
    const char *s;
    size_t n;
    int para = 0, list = 0;
    while (mdlines_next(&l, &s, &n)) {
        MdTable t;
        int is_item = starts(s, n, "- "), is_table = mdtable_read(&l, s, n, &t);
        if ((n == 0 || s[0] == '#' || is_table || starts(s, n, "![") || is_item) && para) {
            fputs("</p>\n", out);
            para = 0;
        }
        if (list && !is_item) {
            fputs("</ul>\n", out);
            list = 0;
        }
        if (n == 0)
            continue;
        if (s[0] == '#')
            heading(out, s, n);
        else if (is_table) {
            table(out, &t);
            mdtable_free(&t);
        }
        else if (starts(s, n, "![") && s[n - 1] == ')' && is_image(s, n)) {
            if (image(out, s, n, base, err) < 0)
                return -1;
        } else if (is_item) {
            fputs(list ? "<li>" : "<ul>\n<li>", out);
            list = 1;
            inline_md(out, s + 2, n - 2);
            fputs("</li>\n", out);
        } else {
            fputs(para ? "\n" : "<p>", out);
            para = 1;
            inline_md(out, s, n);
        }
    }
    fputs(para ? "</p>\n" : "", out);
    fputs(list ? "</ul>\n" : "", out);
    fputs("</body>\n</html>\n", out);
    return 0;
}
