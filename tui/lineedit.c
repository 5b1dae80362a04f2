/* lineedit: prompt text edited in place (lineedit.h). */
#include "tui/lineedit.h"

#include <string.h>

#include "core/utf8.h"
#include "tui/fmt.h"
#include "tui/keys.h"

static int is_cont(char ch)
{
    return ((unsigned char)ch & 0xc0u) == 0x80u;
}

/* The start of the character before byte offset at. */
static int char_before(const char *t, int at)
{
    if (at <= 0)
        return 0;
    at--;
    while (at > 0 && is_cont(t[at]))
        at--;
    return at;
}

/* The end of the character starting at byte offset at. */
static int char_after(const char *t, int at)
{
    int n = (int)strlen(t);
    if (at >= n)
        return n;
    at++;
    while (at < n && is_cont(t[at]))
        at++;
    return at;
}

/* Remove bytes [from, to) of p's text; the cursor goes to from. */
static void cut(TuiPrompt *p, int from, int to)
{
    size_t n = strlen(p->text);
    memmove(p->text + from, p->text + to, n - (size_t)to + 1);
    p->at = from;
}

static void insert(TuiPrompt *p, int key)
{
    char u[5];
    int k = utf8_put((uint32_t)key, u);
    size_t n = strlen(p->text);
    if (n + (size_t)k + 1 > sizeof p->text)
        return;
    memmove(p->text + p->at + k, p->text + p->at, n - (size_t)p->at + 1);
    memcpy(p->text + p->at, u, (size_t)k);
    p->at += k;
}

/* The start of the word before the cursor (spaces before it skipped). */
static int word_before(const char *t, int at)
{
    while (at > 0 && t[at - 1] == ' ')
        at--;
    while (at > 0 && t[at - 1] != ' ')
        at--;
    return at;
}

void lineedit_set(TuiPrompt *p, const char *text)
{
    fmt_copy(p->text, sizeof p->text, text ? text : "");
    p->at = (int)strlen(p->text);
    p->sel = p->text[0] != '\0';
}

/* A key on a selected text: the selection goes, and the key may replace
 * it. Returns as lineedit_key does, or -2 to go on with the key. */
static int on_selection(TuiPrompt *p, int key)
{
    int n = (int)strlen(p->text);
    p->sel = 0;
    switch (key) {
    case TUI_KEY_LEFT:
    case TUI_KEY_HOME: p->at = 0; return 0;
    case TUI_KEY_RIGHT:
    case TUI_KEY_END: p->at = n; return 0;
    case TUI_KEY_BACKSPACE:
    case TUI_KEY_DELETE:
    case TUI_KEY_CTRL_U:
    case TUI_KEY_CTRL_W: cut(p, 0, n); return 1;
    default: break;
    }
    if (tui_key_printable(key)) {
        cut(p, 0, n);
        insert(p, key);
        return 1;
    }
    p->sel = 1;
    return -2;
}

int lineedit_key(TuiPrompt *p, int key)
{
    if (p->sel) {
        int r = on_selection(p, key);
        if (r != -2)
            return r;
    }
    int n = (int)strlen(p->text);
    if (p->at > n)
        p->at = n;
    switch (key) {
    case TUI_KEY_LEFT: p->at = char_before(p->text, p->at); return 0;
    case TUI_KEY_RIGHT: p->at = char_after(p->text, p->at); return 0;
    case TUI_KEY_HOME: p->at = 0; return 0;
    case TUI_KEY_END: p->at = n; return 0;
    case TUI_KEY_BACKSPACE:
        if (p->at == 0)
            return 0;
        cut(p, char_before(p->text, p->at), p->at);
        return 1;
    case TUI_KEY_DELETE:
        if (p->at == n)
            return 0;
        cut(p, p->at, char_after(p->text, p->at));
        return 1;
    case TUI_KEY_CTRL_W: cut(p, word_before(p->text, p->at), p->at); return 1;
    case TUI_KEY_CTRL_U: cut(p, 0, p->at); return 1;
    default: break;
    }
    if (!tui_key_printable(key))
        return -1;
    insert(p, key);
    return 1;
}

/* Columns of bytes [from, to) of t. */
static int cols_of(const Canvas *c, const char *t, int from, int to)
{
    char buf[TUI_PROMPT_MAX];
    int n = to - from;
    if (n <= 0)
        return 0;
    memcpy(buf, t + from, (size_t)n);
    buf[n] = '\0';
    return canvas_width(c, buf);
}

int lineedit_draw(const TuiPrompt *p, Canvas *c, int x, int y, int w, uint16_t attr)
{
    if (w < 2)
        return 0;
    const char *t = p->text;
    int n = (int)strlen(t), at = p->at > n ? n : p->at;
    /* Scroll: drop characters from the left until the cursor fits. */
    int from = 0;
    while (from < at && cols_of(c, t, from, at) + 1 > w)
        from = char_after(t, from);
    uint16_t sel = (uint16_t)(attr | CV_REVERSE);
    char buf[TUI_PROMPT_MAX];
    int used = 0;
    /* Before the cursor. */
    memcpy(buf, t + from, (size_t)(at - from));
    buf[at - from] = '\0';
    used += canvas_text(c, x, y, w, p->sel ? sel : attr, buf);
    /* The cursor cell: the character under it, or a blank at the end. */
    int next = char_after(t, at);
    memcpy(buf, t + at, (size_t)(next - at));
    buf[next - at] = '\0';
    if (used < w) {
        if (buf[0])
            used += canvas_text(c, x + used, y, w - used, sel, buf);
        else
            canvas_fill(c, x + used, y, 1, ' ', p->sel ? attr : sel), used++;
    }
    if (used < w)
        used += canvas_text(c, x + used, y, w - used, p->sel ? sel : attr, t + next);
    return used;
}
