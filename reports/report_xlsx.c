/* report_xlsx: `capplan export budget.xlsx`, the workbook for the budget
 * office (libxlsxwriter). Its sheets are the CSV tables, read back from
 * the very text the CSV files get (reports/report_csv.c), so that the two
 * never disagree: a column whose every value is a number is written as
 * numbers with a format (from its name's unit), a column of ISO dates as
 * dates, anything else as text. Text always goes through
 * worksheet_write_string: nothing from data ever becomes a formula. The
 * only formulas are the SUM totals this file builds from cell ranges. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xlsxwriter.h>

#include "data/ingest/csvin.h"
#include "reports/anon.h"
#include "reports/csvw.h"
#include "reports/report_int.h"

enum { COL_TEXT, COL_NUM, COL_DATE };

/* A table read back from its CSV text: rows[0] the header. */
typedef struct XTable {
    char ***rows;
    size_t *nf;
    size_t nrows, ncols;
} XTable;

typedef struct XFormats {
    lxw_format *head, *text, *date, *integer, *plain, *dec1, *dec2, *dec4, *total, *total_num;
} XFormats;

static int on_record(void *ctx, const CsvinRec *rec, CpErr *err)
{
    (void)err;
    XTable *t = ctx;
    t->rows = xrealloc(t->rows, (t->nrows + 1) * sizeof *t->rows);
    t->nf = xrealloc(t->nf, (t->nrows + 1) * sizeof *t->nf);
    t->rows[t->nrows] = xcalloc(rec->n, sizeof **t->rows);
    for (size_t i = 0; i < rec->n; i++)
        t->rows[t->nrows][i] = xstrdup(rec->f[i]);
    t->nf[t->nrows++] = rec->n;
    if (rec->n > t->ncols)
        t->ncols = rec->n;
    return 0;
}

static void xtable_free(XTable *t)
{
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->nf[r]; c++)
            free(t->rows[r][c]);
        free(t->rows[r]);
    }
    free(t->rows), free(t->nf);
}

static const char *cell(const XTable *t, size_t r, size_t c)
{
    return c < t->nf[r] ? t->rows[r][c] : "";
}

static int parse_num(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return s[0] && !*end && !errno && isfinite(*v) ? 0 : -1;
}

static int is_date(const char *s)
{
    return strlen(s) == 10 && s[4] == '-' && s[7] == '-' && strspn(s, "0123456789") == 4 &&
           strspn(s + 5, "0123456789") == 2 && strspn(s + 8, "0123456789") == 2;
}

/* COL_NUM when every value of column c is a number, COL_DATE when every
 * value is an ISO date, else COL_TEXT; *integral 1 when every number is whole. */
static int column_type(const XTable *t, size_t c, int *integral)
{
    int num = 1, date = 1, any = 0;
    *integral = 1;
    for (size_t r = 1; r < t->nrows; r++) {
        const char *s = cell(t, r, c);
        double v;
        if (!s[0])
            continue;
        any = 1;
        if (parse_num(s, &v) < 0)
            num = 0;
        else if (v != floor(v))
            *integral = 0;
        date &= is_date(s);
    }
    return !any ? COL_NUM : num ? COL_NUM : date ? COL_DATE : COL_TEXT;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* The number format of a column from its name and values. */
static lxw_format *num_format(const XFormats *f, const char *key, int integral)
{
    if (integral && (strcmp(key, "year") == 0 || strcmp(key, "period") == 0 ||
                     strcmp(key, "quarter") == 0 || ends_with(key, "_year")))
        return f->plain; /* 2021, not 2,021 */
    if (integral)
        return f->integer;
    if (ends_with(key, "_pct") || ends_with(key, "_h") || strstr(key, "hours") ||
        ends_with(key, "_gib") || ends_with(key, "kwh"))
        return f->dec1;
    if (ends_with(key, "_gpus") || strstr(key, "gpus"))
        return f->dec2;
    return f->dec4;
}

static void formats(lxw_workbook *wb, XFormats *f)
{
    f->head = workbook_add_format(wb);
    format_set_bold(f->head);
    format_set_bottom(f->head, LXW_BORDER_THIN);
    format_set_text_wrap(f->head);
    format_set_align(f->head, LXW_ALIGN_VERTICAL_TOP);
    f->text = workbook_add_format(wb);
    format_set_num_format(f->text, "@");
    f->date = workbook_add_format(wb);
    format_set_num_format(f->date, "yyyy-mm-dd");
    f->integer = workbook_add_format(wb);
    format_set_num_format(f->integer, "#,##0");
    f->plain = workbook_add_format(wb);
    format_set_num_format(f->plain, "0");
    f->dec1 = workbook_add_format(wb);
    format_set_num_format(f->dec1, "#,##0.0");
    f->dec2 = workbook_add_format(wb);
    format_set_num_format(f->dec2, "#,##0.00");
    f->dec4 = workbook_add_format(wb);
    format_set_num_format(f->dec4, "0.0000");
    f->total = workbook_add_format(wb);
    format_set_bold(f->total);
    format_set_top(f->total, LXW_BORDER_THIN);
    f->total_num = workbook_add_format(wb);
    format_set_bold(f->total_num);
    format_set_top(f->total_num, LXW_BORDER_THIN);
    format_set_num_format(f->total_num, "#,##0.0");
}

/* A text cell as its CSV cell read back: the quote csvw put in front of a
 * formula-like text is removed (a string cell is never a formula). */
static const char *plain_text(const char *s)
{
    return s[0] == '\'' && csvw_risky(s + 1) ? s + 1 : s;
}

static void write_cell(lxw_worksheet *ws, lxw_row_t row, lxw_col_t col, const char *s, int type,
                       lxw_format *numf, const XFormats *f)
{
    double v;
    if (!s[0])
        return;
    if (type == COL_NUM && parse_num(s, &v) == 0)
        worksheet_write_number(ws, row, col, v, numf);
    else if (type == COL_DATE) {
        lxw_datetime d = {atoi(s), atoi(s + 5), atoi(s + 8), 0, 0, 0};
        worksheet_write_datetime(ws, row, col, &d, f->date);
    } else
        worksheet_write_string(ws, row, col, plain_text(s), f->text);
}

/* The totals row under the data: "total", then SUM(first:last) under each
 * column named in totals, with its value cached for readers that do not
 * calculate. */
static void totals_row(lxw_worksheet *ws, const XTable *t, const int *type,
                       const char *const *totals, const XFormats *f)
{
    lxw_row_t row = (lxw_row_t)t->nrows;
    int any = 0;
    for (size_t c = 0; c < t->ncols && totals; c++) {
        int want = 0;
        for (size_t k = 0; totals[k]; k++)
            want |= strcmp(totals[k], cell(t, 0, c)) == 0;
        if (!want || type[c] != COL_NUM || t->nrows < 2)
            continue;
        double sum = 0, v;
        for (size_t r = 1; r < t->nrows; r++)
            if (parse_num(cell(t, r, c), &v) == 0)
                sum += v;
        char a[16], b[16], formula[48];
        lxw_rowcol_to_cell(a, 1, (lxw_col_t)c);
        lxw_rowcol_to_cell(b, (lxw_row_t)t->nrows - 1, (lxw_col_t)c);
        snprintf(formula, sizeof formula, "=SUM(%s:%s)", a, b);
        worksheet_write_formula_num(ws, row, (lxw_col_t)c, formula, f->total_num, sum);
        any = 1;
    }
    if (any)
        worksheet_write_string(ws, row, 0, "total", f->total);
}

static void sheet(lxw_workbook *wb, const char *file, const char *text, size_t len,
                  const char *const *totals, const XFormats *f)
{
    XTable t = {0};
    CpErr err;
    FILE *in = fmemopen((void *)(uintptr_t)text, len ? len : 1, "rb");
    if (in) {
        csvin_read(in, file, 0, on_record, &t, &err); /* our own text: cannot fail */
        fclose(in);
    }
    char name[32];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(file, "."), file);
    lxw_worksheet *ws = workbook_add_worksheet(wb, name);
    int *type = xcalloc(t.ncols + 1, sizeof *type);
    lxw_format **numf = xcalloc(t.ncols + 1, sizeof *numf);
    for (size_t c = 0; c < t.ncols && t.nrows; c++) {
        int integral;
        type[c] = column_type(&t, c, &integral);
        numf[c] = num_format(f, cell(&t, 0, c), integral);
        size_t w = strlen(cell(&t, 0, c));
        worksheet_set_column(ws, (lxw_col_t)c, (lxw_col_t)c, w < 10 ? 10 : w > 28 ? 28 : (double)w,
                             NULL);
        worksheet_write_string(ws, 0, (lxw_col_t)c, cell(&t, 0, c), f->head);
    }
    for (size_t r = 1; r < t.nrows; r++)
        for (size_t c = 0; c < t.ncols; c++)
            write_cell(ws, (lxw_row_t)r, (lxw_col_t)c, cell(&t, r, c), type[c], numf[c], f);
    worksheet_freeze_panes(ws, 1, 0);
    if (t.ncols)
        worksheet_autofilter(ws, 0, 0, (lxw_row_t)(t.nrows ? t.nrows - 1 : 0),
                             (lxw_col_t)(t.ncols - 1));
    totals_row(ws, &t, type, totals, f);
    free(type), free(numf);
    xtable_free(&t);
}

/* The first sheet: what the workbook is and where it comes from. */
static void about(lxw_workbook *wb, const Report *r, const XFormats *f)
{
    lxw_worksheet *ws = workbook_add_worksheet(wb, "about");
    char today[16], t0[16], a[16] = "-", b[16] = "-", years[16];
    rpt_date(r->now, today, sizeof today);
    rpt_date(r->plan->win_end, t0, sizeof t0);
    if (r->tui.acct_to > r->tui.acct_from) {
        rpt_date(r->tui.acct_from, a, sizeof a);
        rpt_date(r->tui.acct_to - 1, b, sizeof b);
    }
    snprintf(years, sizeof years, "%d", r->res->nyears);
    /* a scenario named after a group or a person: scrubbed like all free
     * text when anonymised (#29) */
    char *scrubbed = anon_scrub_current() && r->scenario
                         ? anon_scrub_text(anon_scrub_current(), r->scenario)
                         : NULL;
    const char *scen = scrubbed ? scrubbed : r->scenario;
    const char *rows[][2] = {
        {"GPU capacity plan: the tables", ""},
        {"Written on", today},
        {"capplan version", r->o.version ? r->o.version : "-"},
        {"Database", r->o.db_path && !r->o.anonymize ? r->o.db_path : "-"},
        {"Scenario", scen},
        {"Accounting from", a},
        {"Accounting to", b},
        {"Projection from", t0},
        {"Projection years", years},
        {"Units", "in the column names: _h hours, _pct percent, _gib GiB, gpu_hours "
                  "GPU-hours, gpus GPUs of the reference model; dates YYYY-MM-DD"},
        {"Sheets", "one per CSV file of `capplan export --csv`, same columns; aggregate "
                   "\"all\" rows in the *_all sheets; bold rows are SUM totals"},
    };
    worksheet_set_column(ws, 0, 0, 22, NULL);
    worksheet_set_column(ws, 1, 1, 90, NULL);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        worksheet_write_string(ws, (lxw_row_t)i, 0, rows[i][0], i == 0 ? f->head : NULL);
        worksheet_write_string(ws, (lxw_row_t)i, 1, rows[i][1], f->text);
    }
    free(scrubbed);
}

int report_write_xlsx(const Report *r, const char *path, CpErr *err)
{
    size_t n = strlen(path) + 16;
    char *tmp = xmalloc(n);
    snprintf(tmp, n, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        cp_err_set(err, "%s: cannot create: %s", path, strerror(errno));
        free(tmp);
        return -1;
    }
    close(fd);
    lxw_workbook *wb = workbook_new(tmp);
    if (!wb) {
        unlink(tmp);
        free(tmp);
        return cp_err_set(err, "%s: cannot create the workbook", path);
    }
    XFormats f;
    formats(wb, &f);
    about(wb, r, &f);
    char *text;
    size_t len;
    const char *name, *const *totals;
    for (size_t i = 0; (name = rpt_csv_table(r, i, &text, &len, &totals)) != NULL; i++) {
        sheet(wb, name, text, len, totals, &f);
        free(text);
    }
    lxw_error e = workbook_close(wb);
    int rc = 0;
    if (e != LXW_NO_ERROR)
        rc = cp_err_set(err, "%s: cannot write: %s", path, lxw_strerror(e));
    else if (chmod(tmp, 0644) != 0 || rename(tmp, path) != 0)
        rc = cp_err_set(err, "%s: cannot write: %s", path, strerror(errno));
    if (rc < 0)
        unlink(tmp);
    free(tmp);
    return rc;
}
