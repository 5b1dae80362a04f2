/* table: the sortable, filterable table shared by the views (view.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/utf8.h"
#include "core/utf8.h"
#include "reports/anon.h"
#include "reports/csvw.h"
#include "tui/view.h"

#include "tui/lineedit.h"

#define CELL_MAX 256

int table_selected(const TuiCursor *cur)
{
    return cur->nidx > 0 && cur->row >= 0 && cur->row < cur->nidx ? cur->idx[cur->row] : -1;
}

/* ---- filter and sort -------------------------------------------------- */

/* Case-insensitive (ASCII) substring test. */
static int contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    if (n == 0)
        return 1;
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] &&
               tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return 0;
}

static int row_matches(const TuiTable *t, const TuiState *s, int row, const char *filter)
{
    char buf[CELL_MAX];
    for (int c = 0; c < t->ncols; c++) {
        t->cell(s, row, c, buf, sizeof buf);
        if (contains_ci(buf, filter))
            return 1;
    }
    return 0;
}

typedef struct SortKey {
    int row;
    double v;   /* numeric columns */
    char *text; /* text columns (owned) */
    char *tie;  /* presentation mode: the row's label as shown, ties broken by it (owned) */
} SortKey;

typedef struct SortCtx {
    int numeric, desc;
} SortCtx;

/* NaN sorts last in either direction; ties keep model order. */
static int cmp_key(const void *a, const void *b, void *ctx)
{
    const SortKey *x = a, *y = b;
    const SortCtx *c = ctx;
    int r = 0;
    if (c->numeric) {
        int xn = isnan(x->v), yn = isnan(y->v);
        if (xn || yn)
            return xn != yn ? xn - yn : x->row - y->row;
        r = (x->v > y->v) - (x->v < y->v);
    } else {
        r = strcasecmp(x->text, y->text);
    }
    if (c->desc)
        r = -r;
    if (!r && x->tie && y->tie) /* not model order: that is the real names' (#29 item 5) */
        r = strcmp(x->tie, y->tie);
    return r ? r : x->row - y->row;
}

/* The first text column: the row's label (a name, a pseudonym when
 * redacted); -1 when every column is numeric. */
static int label_col(const TuiTable *t)
{
    for (int c = 0; c < t->ncols; c++)
        if (!t->cols[c].numeric)
            return c;
    return -1;
}

static void sort_rows(const TuiTable *t, const TuiState *s, TuiCursor *cur, int col, int desc)
{
    SortKey *k = xmalloc((size_t)(cur->nidx ? cur->nidx : 1) * sizeof *k);
    SortCtx ctx = {t->cols[col].numeric && t->value, desc};
    int lc = s->redact ? label_col(t) : -1;
    char buf[CELL_MAX];
    for (int i = 0; i < cur->nidx; i++) {
        k[i].row = cur->idx[i];
        k[i].text = NULL;
        k[i].tie = NULL;
        if (lc >= 0) {
            t->cell(s, k[i].row, lc, buf, sizeof buf);
            k[i].tie = xstrdup(buf);
        }
        if (ctx.numeric) {
            k[i].v = t->value(s, k[i].row, col);
        } else {
            t->cell(s, k[i].row, col, buf, sizeof buf);
            k[i].text = xstrdup(buf);
        }
    }
    qsort_r(k, (size_t)cur->nidx, sizeof *k, cmp_key, &ctx);
    for (int i = 0; i < cur->nidx; i++) {
        cur->idx[i] = k[i].row;
        free(k[i].text);
        free(k[i].tie);
    }
    free(k);
}

/* Bumped by every table_prepare: the widths measured before are stale. */
static unsigned prepare_gen = 1;

void table_prepare(const TuiTable *t, const TuiState *s, TuiCursor *cur)
{
    prepare_gen++;
    int keep = table_selected(cur);
    int n = t->nrows(s);
    cur->idx = xrealloc(cur->idx, (size_t)(n ? n : 1) * sizeof *cur->idx);
    cur->nidx = 0;
    for (int r = 0; r < n; r++)
        if (!cur->filter[0] || row_matches(t, s, r, cur->filter))
            cur->idx[cur->nidx++] = r;
    int col = cur->sort_col >= 0 ? cur->sort_col : t->default_sort;
    int desc = cur->sort_col >= 0 ? cur->sort_desc : t->default_desc;
    if (col >= 0 && col < t->ncols)
        sort_rows(t, s, cur, col, desc);
    cur->row = 0;
    for (int i = 0; i < cur->nidx; i++)
        if (cur->idx[i] == keep)
            cur->row = i; /* the selection follows its row */
    if (cur->col < 0 || cur->col >= t->ncols)
        cur->col = 0;
}

/* ---- layout and drawing ----------------------------------------------- */

/* Column widths for width w: hidden columns get -1. */
#define MEASURE_ROWS 500 /* rows measured for a column's widest cell */
#define NEED_MAX 80      /* no column asks for more than this */

/* The columns each column's widest cell (or title) takes, over the rows
 * cur shows (the first MEASURE_ROWS), up to NEED_MAX. */
static void measure(const TuiTable *t, const TuiState *s, const TuiCursor *cur, const Canvas *c,
                    int *need)
{
    char buf[CELL_MAX];
    for (int k = 0; k < t->ncols; k++)
        need[k] = canvas_width(c, t->cols[k].title) + 1; /* room for the sort arrow */
    for (int i = 0; i < cur->nidx && i < MEASURE_ROWS; i++)
        for (int k = 0; k < t->ncols; k++) {
            t->cell(s, cur->idx[i], k, buf, sizeof buf);
            int cw = canvas_width(c, buf);
            if (cw > need[k])
                need[k] = cw;
        }
    for (int k = 0; k < t->ncols; k++)
        if (need[k] > NEED_MAX)
            need[k] = NEED_MAX;
}

/* measure, remembered until the next table_prepare (cells change only
 * when rows are rebuilt): a frame after a key only lays out. */
static void measure_cached(const TuiTable *t, const TuiState *s, const TuiCursor *cur,
                           const Canvas *c, int *need)
{
    enum { SLOTS = 4 };
    static struct {
        const TuiTable *t;
        const TuiCursor *cur;
        unsigned gen;
        int ascii, redact, nidx;
        int need[TUI_MAX_COLS];
    } cache[SLOTS];
    static int next;
    for (int i = 0; i < SLOTS; i++)
        if (cache[i].t == t && cache[i].cur == cur && cache[i].gen == prepare_gen &&
            cache[i].ascii == c->ascii && cache[i].redact == s->redact &&
            cache[i].nidx == cur->nidx) {
            memcpy(need, cache[i].need, sizeof cache[i].need);
            return;
        }
    measure(t, s, cur, c, need);
    int k = next++ % SLOTS;
    cache[k].t = t, cache[k].cur = cur, cache[k].gen = prepare_gen;
    cache[k].ascii = c->ascii, cache[k].redact = s->redact, cache[k].nidx = cur->nidx;
    memcpy(cache[k].need, need, sizeof cache[k].need);
}

/* Column widths for w columns, hidden[c] set for those hidden already:
 * each its minimum, the most droppable hidden first while they do not
 * fit; then the width left goes first to the cut columns that must show
 * whole, then to the others whose text is cut (need: what each needs), in
 * proportion to how much each is cut. */
static void layout_once(const TuiTable *t, int w, const int *need, const int *hidden, int *cw)
{
    int total = -1;
    for (int c = 0; c < t->ncols; c++) {
        cw[c] = hidden[c] ? -1 : t->cols[c].width;
        total += cw[c] >= 0 ? cw[c] + 1 : 0;
    }
    while (total > w) {
        int victim = -1;
        for (int c = 0; c < t->ncols; c++)
            if (cw[c] >= 0 && t->cols[c].drop > 0 &&
                (victim < 0 || t->cols[c].drop >= t->cols[victim].drop))
                victim = c;
        if (victim < 0)
            break;
        total -= cw[victim] + 1;
        cw[victim] = -1;
    }
    int extra = w - total, maxdrop = 0, deficit = 0;
    for (int c = 0; c < t->ncols && extra > 0; c++) {
        if (cw[c] < 0 || !t->cols[c].whole || need[c] <= cw[c])
            continue;
        int add = need[c] - cw[c] < extra ? need[c] - cw[c] : extra;
        cw[c] += add;
        extra -= add;
    }
    for (int c = 0; c < t->ncols; c++) {
        maxdrop = t->cols[c].drop > maxdrop ? t->cols[c].drop : maxdrop;
        deficit += cw[c] >= 0 && need[c] > cw[c] ? need[c] - cw[c] : 0;
    }
    /* The cut ones share the width left by how much each is cut... */
    int share = extra < deficit ? extra : deficit;
    for (int c = 0; c < t->ncols && deficit > 0; c++) {
        if (cw[c] < 0 || need[c] <= cw[c])
            continue;
        int add = (int)((long)share * (need[c] - cw[c]) / deficit);
        cw[c] += add;
        extra -= add;
    }
    /* ...the rounding left to those shown always first. */
    for (int d = 0; d <= maxdrop && extra > 0; d++)
        for (int c = 0; c < t->ncols && extra > 0; c++) {
            if (cw[c] < 0 || t->cols[c].drop != d || need[c] <= cw[c])
                continue;
            int add = need[c] - cw[c] < extra ? need[c] - cw[c] : extra;
            cw[c] += add;
            extra -= add;
        }
    (void)extra; /* what is left stays blank at the right, not inside a column */
}

/* The column to hide so that a cut whole column gets its width: the most
 * droppable shown one that is more droppable than the cut one; -1 if none
 * is cut or none can go. */
static int whole_victim(const TuiTable *t, const int *need, const int *cw)
{
    int cut_drop = -1;
    for (int c = 0; c < t->ncols; c++)
        if (cw[c] >= 0 && t->cols[c].whole && need[c] > cw[c] &&
            (cut_drop < 0 || t->cols[c].drop < cut_drop))
            cut_drop = t->cols[c].drop;
    if (cut_drop < 0)
        return -1;
    int victim = -1;
    for (int c = 0; c < t->ncols; c++)
        if (cw[c] >= 0 && t->cols[c].drop > cut_drop &&
            (victim < 0 || t->cols[c].drop >= t->cols[victim].drop))
            victim = c;
    return victim;
}

/* Column widths for w columns: layout_once, hiding one more droppable
 * column at a time while a whole column is still cut. */
static void layout(const TuiTable *t, int w, const int *need, int *cw)
{
    int hidden[TUI_MAX_COLS] = {0};
    for (;;) {
        layout_once(t, w, need, hidden, cw);
        int victim = whole_victim(t, need, cw);
        if (victim < 0)
            return;
        hidden[victim] = 1;
    }
}

/* A column title with the sort arrow, cut so that the arrow always shows. */
static void header_title(const Canvas *c, const TuiCol *col, int sorted, int desc, int w,
                         char *buf, size_t n)
{
    const char *arrow = !sorted ? "" : desc ? "\xe2\x96\xbc" : "\xe2\x96\xb2";
    char title[64];
    snprintf(title, sizeof title, "%s", col->title);
    int room = w - (sorted ? 1 : 0);
    while (title[0] && canvas_width(c, title) > room) {
        size_t k = strlen(title);
        while (k > 0 && ((unsigned char)title[k - 1] & 0xc0u) == 0x80u)
            k--;
        title[k > 0 ? k - 1 : 0] = '\0';
    }
    snprintf(buf, n, "%s%s", title, arrow);
}

static void draw_header(const TuiTable *t, const TuiCursor *cur, Canvas *c, int y,
                        const int *xs, const int *cw)
{
    int col = cur->sort_col >= 0 ? cur->sort_col : t->default_sort;
    int desc = cur->sort_col >= 0 ? cur->sort_desc : t->default_desc;
    for (int k = 0; k < t->ncols; k++) {
        if (cw[k] < 0)
            continue;
        char title[80];
        header_title(c, &t->cols[k], k == col, desc, cw[k], title, sizeof title);
        uint16_t a = k == cur->col ? CV_CURSOR : CV_HEAD;
        canvas_fill(c, xs[k], y, cw[k], ' ', a);
        if (t->cols[k].numeric)
            canvas_text_right(c, xs[k], y, cw[k], a, title);
        else
            canvas_text(c, xs[k], y, cw[k], a, title);
    }
}

static void draw_row(const TuiTable *t, const TuiState *s, Canvas *c, int y, int row, int sel,
                     const int *xs, const int *cw)
{
    char buf[CELL_MAX];
    /* An edit is typed in its own form (tui/editform), never in a cell:
     * the edited cell keeps its value, under the cursor. */
    int editing = sel && s->prompt.kind == TUI_P_EDIT && s->prompt.row == row;
    for (int k = 0; k < t->ncols; k++) {
        if (cw[k] < 0)
            continue;
        uint16_t a = t->attr ? t->attr(s, row, k) : CV_NORMAL;
        if (sel)
            a = (uint16_t)((a & ~CV_ROLE_MASK) | CV_SELECTED);
        if (editing && s->prompt.col == k)
            a = (uint16_t)((a & ~CV_ROLE_MASK) | CV_CURSOR | CV_BOLD);
        t->cell(s, row, k, buf, sizeof buf);
        if (t->cols[k].numeric)
            canvas_text_right(c, xs[k], y, cw[k], a, buf);
        else
            canvas_text(c, xs[k], y, cw[k], a, buf);
    }
}

void table_draw(const TuiTable *t, const TuiState *s, const TuiCursor *cur, Canvas *c, int x,
                int y, int w, int h, TuiFrame *f)
{
    int cw[TUI_MAX_COLS], xs[TUI_MAX_COLS];
    if (h < 1 || w < 4)
        return;
    int need[TUI_MAX_COLS];
    measure_cached(t, s, cur, c, need);
    layout(t, w, need, cw);
    int at = x;
    for (int k = 0; k < t->ncols && k < TUI_MAX_COLS; k++) {
        xs[k] = cw[k] >= 0 ? at : -1;
        if (cw[k] >= 0)
            at += cw[k] + 1;
        f->col_x[k] = xs[k];
        f->col_w[k] = cw[k];
    }
    canvas_fill(c, x, y, w, ' ', CV_HEAD);
    draw_header(t, cur, c, y, xs, cw);
    int body = h - 1;
    int top = cur->top;
    if (cur->row < top)
        top = cur->row;
    if (cur->row >= top + body)
        top = cur->row - body + 1;
    if (top < 0)
        top = 0;
    f->head_y = y;
    f->table_y = y + 1;
    f->table_h = body;
    for (int i = 0; i < body && top + i < cur->nidx; i++) {
        int sel = top + i == cur->row;
        if (sel)
            canvas_fill(c, x, y + 1 + i, w, ' ', CV_SELECTED);
        draw_row(t, s, c, y + 1 + i, cur->idx[top + i], sel, xs, cw);
    }
    if (cur->nidx == 0)
        canvas_text(c, x + 1, y + 1, w - 1, CV_DIM,
                    cur->filter[0] ? "no row matches the filter" : "no rows");
}

/* ---- export ----------------------------------------------------------- */

/* cell text for a file: control characters and escapes become '?'. */
static void clean_text(const char *in, char *out, size_t n)
{
    size_t o = 0;
    while (*in && o + 5 < n) {
        uint32_t cp = utf8_cp_clean(utf8_next(&in));
        if (cp == 0xfffd)
            cp = '?';
        o += (size_t)utf8_put(cp, out + o);
    }
    out[o] = '\0';
}

static void put_md_cell(FILE *f, const char *text)
{
    fputs(" ", f);
    for (const char *p = text; *p; p++) {
        if (*p == '|' || *p == '\\')
            fputc('\\', f);
        fputc(*p, f);
    }
    fputs(" |", f);
}

static void put_csv_cell(FILE *f, const char *text, int numeric, int last)
{
    int quote = strpbrk(text, ",\"\r\n") != NULL;
    int neutral = !numeric && csvw_risky(text); /* " =1+1" too */
    if (quote || neutral)
        fputc('"', f);
    if (neutral)
        fputc('\'', f);
    for (const char *p = text; *p; p++) {
        if (*p == '"')
            fputc('"', f);
        fputc(*p, f);
    }
    if (quote || neutral)
        fputc('"', f);
    fputs(last ? "\r\n" : ",", f);
}

/* In presentation mode an export names no one either (tui/redact). */
static char *redacted(const TuiState *s, char *buf, size_t n)
{
    if (s->redact && s->scrub)
        anon_scrub_buf(s->scrub, buf, buf, n);
    return buf;
}

static const char *file_title(const TuiCol *col)
{
    return col->file_title ? col->file_title : col->title;
}

static void export_md(FILE *f, const TuiTable *t, const TuiState *s, const TuiCursor *cur,
                      const char *title)
{
    char raw[CELL_MAX], buf[CELL_MAX];
    if (title) {
        clean_text(title, buf, sizeof buf);
        redacted(s, buf, sizeof buf);
        fprintf(f, "# %s\n\n", buf);
    }
    fputs("|", f);
    for (int k = 0; k < t->ncols; k++)
        put_md_cell(f, file_title(&t->cols[k]));
    fputs("\n|", f);
    for (int k = 0; k < t->ncols; k++)
        fputs(t->cols[k].numeric ? " ---: |" : " --- |", f);
    fputs("\n", f);
    for (int i = 0; i < cur->nidx; i++) {
        fputs("|", f);
        for (int k = 0; k < t->ncols; k++) {
            t->cell(s, cur->idx[i], k, raw, sizeof raw);
            clean_text(raw, buf, sizeof buf);
            put_md_cell(f, redacted(s, buf, sizeof buf));
        }
        fputs("\n", f);
    }
}

static void export_csv(FILE *f, const TuiTable *t, const TuiState *s, const TuiCursor *cur)
{
    char raw[CELL_MAX], buf[CELL_MAX];
    for (int k = 0; k < t->ncols; k++)
        put_csv_cell(f, file_title(&t->cols[k]), 0, k == t->ncols - 1);
    for (int i = 0; i < cur->nidx; i++) {
        for (int k = 0; k < t->ncols; k++) {
            int num = t->cols[k].numeric && t->value;
            if (num) {
                double v = t->value(s, cur->idx[i], k);
                if (t->cols[k].file_scale != 0)
                    v *= t->cols[k].file_scale;
                if (isnan(v))
                    buf[0] = '\0';
                else
                    snprintf(buf, sizeof buf, "%.10g", v);
            } else {
                t->cell(s, cur->idx[i], k, raw, sizeof raw);
                clean_text(raw, buf, sizeof buf);
                redacted(s, buf, sizeof buf);
            }
            put_csv_cell(f, buf, num, k == t->ncols - 1);
        }
    }
}

static void export_parts(FILE *f, const TuiExportPart *parts, int n, const TuiState *s,
                         const char *title, int csv)
{
    char buf[CELL_MAX];
    for (int i = 0; i < n; i++) {
        if (csv) {
            if (i > 0)
                fputs("\r\n", f);
            export_csv(f, parts[i].t, s, parts[i].cur);
            continue;
        }
        if (i > 0) {
            clean_text(parts[i].heading ? parts[i].heading : "", buf, sizeof buf);
            fprintf(f, "\n## %s\n\n", buf);
        }
        export_md(f, parts[i].t, s, parts[i].cur, i == 0 ? title : NULL);
    }
}

int table_export(const TuiTable *t, const TuiState *s, const TuiCursor *cur, const char *title,
                 const char *path, int csv, CpErr *err)
{
    TuiExportPart part = {t, cur, NULL};
    return table_export_parts(&part, 1, s, title, path, csv, err);
}

int table_export_parts(const TuiExportPart *parts, int nparts, const TuiState *s,
                       const char *title, const char *path, int csv, CpErr *err)
{
    size_t n = strlen(path) + 16;
    char *tmp = xmalloc(n);
    snprintf(tmp, n, "%s.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        cp_err_set(err, "%s: %s", path, strerror(errno));
        free(tmp);
        return -1;
    }
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask); /* as a plain file would be, not mkstemp's 0600 */
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlink(tmp);
        free(tmp);
        return cp_err_set(err, "%s: %s", path, strerror(errno));
    }
    export_parts(f, parts, nparts, s, title, csv);
    int bad = fflush(f) != 0 || ferror(f) || fsync(fd) != 0;
    int saved = errno;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        if (!bad)
            saved = errno;
        unlink(tmp);
        free(tmp);
        return cp_err_set(err, "%s: %s", path, strerror(saved));
    }
    free(tmp);
    return 0;
}
