#ifndef VIEW_H
#define VIEW_H
/* view: what every view provides (a vtable, one const instance per
 * view_*.c file), and the table most views are built around: columns,
 * cells read from the model through callbacks, filtered and sorted into
 * the view's TuiCursor, drawn with right-aligned numbers, a header showing
 * the sort and the column under the cursor, and exported as Markdown or
 * CSV from the same cells. Views render a const TuiState; only prepare
 * (called by the loop when a key asked for TUI_RECALC) may change state. */

#include <stddef.h>
#include <stdint.h>

#include "tui/app.h"

typedef struct TuiEditForm TuiEditForm;

typedef struct TuiCol {
    const char *title;
    int width;     /* minimum columns */
    int flex;      /* share of the width left over */
    int numeric;   /* right-aligned, sorted by value, exported as a number */
    int drop;      /* 0: always shown; higher numbers hidden first when narrow */
    int whole;     /* never cut while a more droppable column could be hidden instead
                      (job ids, states); free text (names, reasons) is cut */
    const char *file_title; /* the header in an export, units said (NULL: title) */
    double file_scale;      /* a numeric cell's value times this in a CSV (0: 1), so that
                               percentages are percentages and waits hours */
} TuiCol;

typedef struct TuiTable {
    const TuiCol *cols;
    int ncols;
    /* Rows in the model. */
    int (*nrows)(const TuiState *s);
    /* Text of a cell as shown (units included). */
    void (*cell)(const TuiState *s, int row, int col, char *buf, size_t n);
    /* Value of a numeric cell for sorting and CSV; NaN when unknown. */
    double (*value)(const TuiState *s, int row, int col);
    /* Attribute of a cell; NULL: CV_NORMAL. */
    uint16_t (*attr)(const TuiState *s, int row, int col);
    int default_sort;  /* column sorted by before any s, -1: model order */
    int default_desc;
} TuiTable;

typedef struct TuiView {
    const char *name;  /* in the title: capplan · <name> · scenario <s> */
    const char *tab;   /* its tab label */
    /* The table the cursor moves in, or NULL. */
    const TuiTable *(*table)(const TuiState *s);
    /* Draw the body in rows [y, y + h) of c; report the table in f. */
    void (*render)(const TuiState *s, Canvas *c, int y, int h, TuiFrame *f);
    /* Rebuild rows and load what the view needs (may be NULL). */
    void (*prepare)(TuiState *s);
    /* Enter on the selected row; NULL: nothing to open. */
    unsigned (*enter)(TuiState *s);
    const char *enter_label;
    /* e: start editing the selected row; NULL: nothing editable. */
    unsigned (*edit)(TuiState *s);
    /* Accept the text of the edit (s->prompt); refuse with a status
     * message and keep the prompt open when invalid. */
    unsigned (*edit_accept)(TuiState *s);
    /* What the open edit's form shows (tui/editform.h): the field, the
     * value before, the typed value and reason as they will be read, the
     * effect of saving; NULL: the prompt's label and text alone. */
    void (*edit_form)(const TuiState *s, TuiEditForm *f);
    /* Esc inside the view (member detail back to the table); 0: not
     * handled, the loop goes back a view. */
    unsigned (*esc)(TuiState *s);
    /* Slow loads (a scan of the jobs table), run once the frame is on the
     * screen so that a key never waits for them; returns TUI_* flags when
     * it loaded something (NULL: nothing to load). */
    unsigned (*after_paint)(TuiState *s);
} TuiView;

extern const TuiView view_overview, view_groups, view_group, view_profiles, view_projection,
    view_usage, view_scenarios;

/* c in the Scenarios view: pick the selected scenario as the first (A),
 * then the second (B) of the comparison. */
unsigned view_scenarios_pick(TuiState *s);

/* The view with that id. */
const TuiView *tui_view(TuiViewId id);

/* Rebuild cur->idx from t: rows whose shown text contains cur->filter
 * (case-insensitive; redacted names are matched as shown), sorted by
 * cur->sort_col (or the default), row clamped. */
void table_prepare(const TuiTable *t, const TuiState *s, TuiCursor *cur);

/* Draw t with its header at row y, body rows below, in w x h at x; marks
 * the selected row and the cursor column; fills f's table fields. */
void table_draw(const TuiTable *t, const TuiState *s, const TuiCursor *cur, Canvas *c, int x,
                int y, int w, int h, TuiFrame *f);

/* The model row under the cursor, -1 when the table is empty. */
int table_selected(const TuiCursor *cur);

/* One table of an export: its rows as cur lists them, under a heading
 * (NULL: none; the first part's heading is the file's title). */
typedef struct TuiExportPart {
    const TuiTable *t;
    const TuiCursor *cur;
    const char *heading;
} TuiExportPart;

/* Write parts[0..n) as Markdown (csv = 0: a title, then each table under
 * its heading) or CSV (RFC 4180, formula-like text cells neutralised; the
 * tables one after another, a blank line between) to a temporary file next
 * to path, then rename it to path. -1 with err. */
int table_export_parts(const TuiExportPart *parts, int n, const TuiState *s, const char *title,
                       const char *path, int csv, CpErr *err);

/* Write the visible rows of t as Markdown (csv = 0) or CSV (RFC 4180,
 * formula-like text cells neutralised) to a temporary file next to path,
 * then rename it to path. -1 with err. */
int table_export(const TuiTable *t, const TuiState *s, const TuiCursor *cur, const char *title,
                 const char *path, int csv, CpErr *err);

#endif
