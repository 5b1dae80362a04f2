/* editform: the edit line of its own (editform.h). */
#include "tui/editform.h"

#include <stdio.h>
#include <string.h>

#include "tui/fmt.h"
#include "tui/lineedit.h"
#include "tui/view.h"

#define LABEL_W 6   /* "was   ", "new   ", "why   ", "then  " */
#define WHY_ROWS 3  /* a long reason wraps on three rows at most */

/* The next line of text that fits w columns, cut at a space when one is
 * there (else at a character), into line; returns the bytes of text used
 * (spaces after the cut included). */
static size_t wrap_next(const Canvas *c, const char *text, int w, char *line, size_t n)
{
    size_t len = strlen(text), best = 0, k = 0;
    if (canvas_width(c, text) <= w) {
        fmt_copy(line, n, text);
        return len;
    }
    while (k < len && k + 1 < n) {
        size_t next = k + 1;
        while (next < len && ((unsigned char)text[next] & 0xc0u) == 0x80u)
            next++;
        char cand[TUI_PROMPT_MAX + 64];
        snprintf(cand, sizeof cand, "%.*s", (int)next, text);
        if (canvas_width(c, cand) > w)
            break;
        k = next;
        if (text[k] == ' ')
            best = k;
    }
    size_t cut = best ? best : (k ? k : 1);
    snprintf(line, n, "%.*s", (int)cut, text);
    while (text[cut] == ' ')
        cut++;
    return cut;
}

static int wrapped_rows(const Canvas *c, const char *text, int w)
{
    int rows = 0;
    char line[TUI_PROMPT_MAX + 64];
    while (*text && rows < WHY_ROWS) {
        text += wrap_next(c, text, w, line, sizeof line);
        rows++;
    }
    return rows ? rows : 1;
}

int editform_rows(const Canvas *c, const TuiEditForm *f, int w)
{
    int tw = w - 1 - LABEL_W;
    int rows = 1 + 1 + 1 + 1; /* the title, was, new, the line typed */
    if (f->why[0])
        rows += wrapped_rows(c, f->why, tw);
    rows += f->effect[0] != '\0';
    rows += f->offer[0] ? wrapped_rows(c, f->offer, w - 2) : 0;
    return rows;
}

/* One labelled row: "was   TEXT". */
static void labelled(Canvas *c, int y, const char *label, uint16_t attr, const char *text)
{
    canvas_text(c, 1, y, LABEL_W, CV_DIM, label);
    canvas_text(c, 1 + LABEL_W, y, c->w - 2 - LABEL_W, attr, text);
}

void editform_draw(const TuiState *s, const TuiEditForm *f, Canvas *c, int bottom, int h)
{
    int rows = editform_rows(c, f, c->w);
    if (rows > h)
        rows = h;
    if (rows < 2)
        return;
    int y = bottom - rows, tw = c->w - 2 - LABEL_W;
    for (int i = 0; i < rows; i++)
        canvas_fill(c, 0, y + i, c->w, ' ', CV_NORMAL);
    canvas_fill(c, 0, y, c->w, ' ', CV_HEAD);
    canvas_textf(c, 1, y, c->w - 2, CV_HEAD | CV_BOLD, "Edit %s", f->field);
    int at = y + 1, last = bottom - 1; /* the typed line always shows, on the last row */
    if (at < last)
        labelled(c, at++, "was", CV_NORMAL, f->old);
    if (at < last)
        labelled(c, at++, "new", f->bad ? CV_BAD | CV_BOLD : CV_EDITED | CV_BOLD,
                 f->now[0] ? f->now : "(type it)");
    const char *why = f->why;
    for (int r = 0; *why && r < WHY_ROWS && at < last; r++) {
        char line[TUI_PROMPT_MAX + 64];
        why += wrap_next(c, why, tw, line, sizeof line);
        labelled(c, at++, r == 0 ? "why" : "", CV_NORMAL, line);
    }
    if (f->effect[0] && at < last)
        labelled(c, at++, "then", CV_ACCENT | CV_BOLD, f->effect);
    const char *offer = f->offer;
    while (*offer && at < last) {
        char line[TUI_PROMPT_MAX + 64];
        offer += wrap_next(c, offer, c->w - 2, line, sizeof line);
        canvas_text(c, 1, at++, c->w - 2, CV_WARN | CV_BOLD, line);
    }
    canvas_text(c, 1, last, 2, CV_DIM, "> ");
    canvas_fill(c, 3, last, c->w - 4, ' ', CV_EDITED);
    lineedit_draw(&s->prompt, c, 3, last, c->w - 4, CV_EDITED);
}

void editform_fill(const TuiState *s, TuiEditForm *f)
{
    memset(f, 0, sizeof *f);
    const TuiView *v = tui_view(s->view);
    if (v->edit_form) {
        v->edit_form(s, f);
        return;
    }
    fmt_copy(f->field, sizeof f->field, s->prompt.label);
    fmt_copy(f->old, sizeof f->old, "-");
    fmt_copy(f->now, sizeof f->now, s->prompt.text);
}
