/* help_draw: the help overlay (? or F1) drawn over the view: the view's
 * legend (tui/help.c), what every view shares, then the keys; wrapped at
 * spaces into a box as wide as the terminal up to 100 columns, scrolled from
 * s->help_top, its header saying which lines show of how many. */
#include <stdio.h>
#include <string.h>

#include "tui/help.h"
#include "tui/view.h"

#define HELP_MAX_W 100

/* The overlay's lines, drawn from line top on: a virtual list of rows into
 * [y, y + h) of the box at x, w columns; row counts every line. */
typedef struct HelpPen {
    Canvas *c;
    int x, y, w, h, top, row;
} HelpPen;

static void help_put(HelpPen *p, int indent, uint16_t attr, const char *text)
{
    if (p->row >= p->top && p->row - p->top < p->h)
        canvas_text(p->c, p->x + indent, p->y + p->row - p->top, p->w - indent, attr, text);
    p->row++;
}

/* text wrapped at spaces into w - indent columns, continued lines indented
 * by 2 more. */
static void help_wrap(HelpPen *p, int indent, uint16_t attr, const char *text)
{
    char line[512];
    size_t n = 0;
    const char *at = text;
    int first = indent;
    while (*at) {
        const char *sp = strchr(at, ' ');
        size_t k = sp ? (size_t)(sp - at) : strlen(at);
        char cand[512];
        snprintf(cand, sizeof cand, "%.*s%s%.*s", (int)n, line, n ? " " : "", (int)k, at);
        if (n && canvas_width(p->c, cand) > p->w - indent) {
            line[n] = '\0';
            help_put(p, indent, attr, line);
            indent = first + 2;
            snprintf(line, sizeof line, "%.*s", (int)k, at);
        } else {
            snprintf(line, sizeof line, "%s", cand);
        }
        n = strlen(line);
        at += k;
        while (*at == ' ')
            at++;
    }
    if (n)
        help_put(p, indent, attr, line);
}

/* Every line of the overlay through pen (rows counted, those in view drawn). */
static void help_lines(const TuiState *s, HelpPen *p)
{
    int n, nv, nc;
    const TuiHelpLine *keys = tui_help_lines(&n);
    int jobs = tui_help_member_jobs(s);
    const char *const *legend = tui_help_legend(s, &nv);
    const char *const *common = tui_help_common(&nc);
    char title[80];
    snprintf(title, sizeof title, "In %s%s:", tui_view(s->view)->name,
             jobs ? ", a member's jobs" : "");
    help_put(p, 0, CV_ACCENT | CV_BOLD, title);
    for (int i = 0; i < nv; i++)
        help_wrap(p, 0, CV_NORMAL, legend[i]);
    help_put(p, 0, CV_NORMAL, "");
    help_put(p, 0, CV_ACCENT | CV_BOLD, "In every view:");
    for (int i = 0; i < nc; i++)
        help_wrap(p, 0, CV_NORMAL, common[i]);
    help_put(p, 0, CV_NORMAL, "");
    help_put(p, 0, CV_ACCENT | CV_BOLD, "Keys:");
    for (int i = 0; i < n; i++) {
        if (p->row >= p->top && p->row - p->top < p->h)
            canvas_text(p->c, p->x, p->y + p->row - p->top, 16, CV_ACCENT | CV_BOLD, keys[i].keys);
        HelpPen q = *p;
        q.x += 17;
        q.w -= 17;
        help_wrap(&q, 0, CV_NORMAL, keys[i].help);
        p->row = q.row;
    }
}

void help_draw(TuiState *s, Canvas *c)
{
    int w = c->w > HELP_MAX_W + 4 ? HELP_MAX_W : c->w, h = c->h - 2;
    int x0 = (c->w - w) / 2, y0 = 1;
    /* a blank column either side when the box does not fill the width */
    int bx = x0 > 0 ? x0 - 1 : x0, bw = x0 > 0 ? w + 2 : w;
    for (int y = 0; y < h; y++)
        canvas_fill(c, bx, y0 + y, bw, ' ', CV_NORMAL);
    /* count the lines at this width first: the scroll stops at the last page */
    HelpPen p = {c, x0 + 1, y0 + 1, w - 2, 0, 0, 0};
    help_lines(s, &p);
    s->help_rows = p.row;
    s->help_page = h - 1;
    int last = s->help_rows > s->help_page ? s->help_rows - s->help_page : 0;
    if (s->help_top > last)
        s->help_top = last;
    int shown = s->help_rows - s->help_top < s->help_page ? s->help_rows - s->help_top
                                                           : s->help_page;
    canvas_fill(c, bx, y0, bw, ' ', CV_HEAD);
    canvas_textf(c, x0 + 1, y0, w - 2, CV_HEAD | CV_BOLD,
                 "capplan help \xc2\xb7 ? or Esc closes \xc2\xb7 j/k, PgDn/PgUp scroll \xc2\xb7 "
                 "lines %d-%d of %d",
                 s->help_top + 1, s->help_top + shown, s->help_rows);
    p = (HelpPen){c, x0 + 1, y0 + 1, w - 2, h - 1, s->help_top, 0};
    help_lines(s, &p);
}
