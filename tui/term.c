/* term: curses in, canvas out (term.h). */
#define NCURSES_WIDECHAR 1
#include "tui/term.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "tui/keys.h"

static int term_active;
static int term_color;
static int term_sgr; /* 1: SGR 1006 mouse reports switched on and read here, not by curses */

/* The code curses returns for "\e[<", the start of an SGR mouse report
 * (above KEY_MAX and the codes curses gives terminfo's extended keys). */
#define KEY_SGR_MOUSE 0x7e00
static attr_t role_attr[CV_ROLE_COUNT];

/* Colour pair (foreground, background) per role; -1 = the default. */
static const short role_colors[CV_ROLE_COUNT][2] = {
    [CV_NORMAL] = {-1, -1},
    [CV_TITLE] = {COLOR_BLACK, COLOR_CYAN},
    [CV_TAB] = {-1, -1},
    [CV_TAB_ON] = {COLOR_BLACK, COLOR_CYAN},
    [CV_HEAD] = {COLOR_BLACK, COLOR_GREEN},
    [CV_SELECTED] = {COLOR_BLACK, COLOR_CYAN},
    [CV_CURSOR] = {COLOR_BLACK, COLOR_YELLOW},
    [CV_FKEY] = {-1, -1},
    [CV_FLABEL] = {COLOR_BLACK, COLOR_CYAN},
    [CV_STATUS] = {-1, -1},
    [CV_GOOD] = {COLOR_GREEN, -1},
    [CV_WARN] = {COLOR_YELLOW, -1},
    [CV_BAD] = {COLOR_RED, -1},
    [CV_DIM] = {-1, -1},
    [CV_EDITED] = {COLOR_MAGENTA, -1},
    [CV_ACCENT] = {COLOR_CYAN, -1},
    [CV_EVENT] = {COLOR_YELLOW, -1},
};

/* Without colour, meaning through attributes only. */
static const attr_t role_mono[CV_ROLE_COUNT] = {
    [CV_TITLE] = A_REVERSE | A_BOLD, [CV_TAB_ON] = A_REVERSE,    [CV_HEAD] = A_BOLD | A_UNDERLINE,
    [CV_SELECTED] = A_REVERSE,       [CV_CURSOR] = A_REVERSE | A_BOLD,
    [CV_FKEY] = A_BOLD,              [CV_FLABEL] = A_REVERSE,     [CV_BAD] = A_BOLD,
    [CV_WARN] = A_BOLD,              [CV_DIM] = A_DIM,            [CV_EDITED] = A_UNDERLINE,
    [CV_EVENT] = A_BOLD,
};

static void setup_colors(void)
{
    const char *nc = getenv("NO_COLOR");
    term_color = has_colors() && !(nc && nc[0]);
    if (term_color) {
        start_color();
        use_default_colors();
    }
    for (int r = 0; r < CV_ROLE_COUNT; r++) {
        if (!term_color) {
            role_attr[r] = role_mono[r];
            continue;
        }
        init_pair((short)(r + 1), role_colors[r][0], role_colors[r][1]);
        role_attr[r] = COLOR_PAIR(r + 1) | (r == CV_DIM ? A_DIM : 0);
    }
}

static attr_t attr_of(uint16_t a)
{
    unsigned role = a & CV_ROLE_MASK;
    attr_t at = role < CV_ROLE_COUNT ? role_attr[role] : 0;
    if (a & CV_BOLD)
        at |= A_BOLD;
    if (a & CV_REVERSE)
        at |= A_REVERSE;
    if (a & CV_UNDERLINE)
        at |= A_UNDERLINE;
    return at;
}

static void paint(TuiIO *io, const Canvas *c)
{
    (void)io;
    for (int y = 0; y < c->h && y < LINES; y++) {
        for (int x = 0; x < c->w && x < COLS; x++) {
            const CanvasCell *k = canvas_at(c, x, y);
            if (k->ch == 0)
                continue; /* the right half of a wide character */
            wchar_t wc[2] = {(wchar_t)k->ch, L'\0'};
            cchar_t cc;
            attr_t at = attr_of(k->attr);
            short pair = (short)PAIR_NUMBER(at);
            setcchar(&cc, wc, at & ~A_COLOR, pair, NULL);
            mvadd_wch(y, x, &cc);
        }
    }
    refresh();
}

static int map_key(int code, TuiState *s)
{
    MEVENT ev;
    switch (code) {
    case KEY_UP: return TUI_KEY_UP;
    case KEY_DOWN: return TUI_KEY_DOWN;
    case KEY_LEFT: return TUI_KEY_LEFT;
    case KEY_RIGHT: return TUI_KEY_RIGHT;
    case KEY_PPAGE: return TUI_KEY_PGUP;
    case KEY_NPAGE: return TUI_KEY_PGDN;
    case KEY_HOME: return TUI_KEY_HOME;
    case KEY_END: return TUI_KEY_END;
    case KEY_ENTER: return TUI_KEY_ENTER;
    case KEY_BACKSPACE: return TUI_KEY_BACKSPACE;
    case KEY_DC: return TUI_KEY_DELETE;
    case KEY_BTAB: return TUI_KEY_BTAB;
    case KEY_RESIZE: return TUI_KEY_RESIZE;
    case KEY_MOUSE:
        if (getmouse(&ev) != OK)
            return TUI_KEY_TIMEOUT;
        s->mouse_x = ev.x;
        s->mouse_y = ev.y;
        if (ev.bstate & BUTTON4_PRESSED)
            return TUI_KEY_WHEEL_UP;
        if (ev.bstate & BUTTON5_PRESSED)
            return TUI_KEY_WHEEL_DOWN;
        return ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED) ? TUI_KEY_MOUSE : TUI_KEY_TIMEOUT;
    default:
        break;
    }
    if (code >= KEY_F(1) && code <= KEY_F(10))
        return TUI_KEY_F1 + (code - KEY_F(1));
    return TUI_KEY_TIMEOUT;
}

static int map_char(wint_t ch)
{
    switch (ch) {
    case '\n':
    case '\r': return TUI_KEY_ENTER;
    case 27: return TUI_KEY_ESC;
    case 8:
    case 127: return TUI_KEY_BACKSPACE;
    case '\t': return TUI_KEY_TAB;
    case 12: return TUI_KEY_CTRL_L;
    case 21: return TUI_KEY_CTRL_U;
    case 23: return TUI_KEY_CTRL_W;
    case 18: return TUI_KEY_CTRL_R;
    default: return ch < 0x20 ? TUI_KEY_TIMEOUT : (int)ch;
    }
}

/* A number of an SGR report up to its separator (stored in *end); -1
 * when the report is cut short or not one. */
static int sgr_number(int *end)
{
    int n = 0, digits = 0;
    for (;;) {
        wint_t ch;
        if (get_wch(&ch) != OK)
            return -1;
        if (ch >= '0' && ch <= '9' && digits < 6) {
            n = n * 10 + (int)(ch - '0');
            digits++;
            continue;
        }
        *end = (int)ch;
        return digits ? n : -1;
    }
}

/* The rest of an SGR mouse report after "\e[<": "B;X;Y" then M (press)
 * or m (release), columns and rows from 1; mapped as curses' own. */
static int read_sgr_mouse(TuiState *s)
{
    int e1 = 0, e2 = 0, e3 = 0;
    timeout(50); /* the report is sent at once: its bytes are there */
    int b = sgr_number(&e1), x = e1 == ';' ? sgr_number(&e2) : -1,
        y = e2 == ';' ? sgr_number(&e3) : -1;
    if (b < 0 || x < 1 || y < 1 || (e3 != 'M' && e3 != 'm'))
        return TUI_KEY_TIMEOUT;
    s->mouse_x = x - 1;
    s->mouse_y = y - 1;
    if (e3 == 'm' || (b & 32)) /* a release or a motion */
        return TUI_KEY_TIMEOUT;
    if (b & 64)
        return (b & 3) == 0 ? TUI_KEY_WHEEL_UP : (b & 3) == 1 ? TUI_KEY_WHEEL_DOWN : TUI_KEY_TIMEOUT;
    return (b & 3) == 0 ? TUI_KEY_MOUSE : TUI_KEY_TIMEOUT;
}

static int read_key(TuiIO *io, int timeout_ms, TuiState *s)
{
    (void)io;
    timeout(timeout_ms);
    wint_t ch;
    int64_t t0 = tui_now_ms();
    int rc = get_wch(&ch);
    if (rc == ERR) {
        /* Blocking, or back long before the timeout: the terminal is gone. */
        if (timeout_ms < 0 || (timeout_ms >= 20 && tui_now_ms() - t0 < 5))
            return isatty(STDIN_FILENO) ? TUI_KEY_TIMEOUT : TUI_KEY_EOF;
        return TUI_KEY_TIMEOUT;
    }
    if (rc == KEY_CODE_YES && ch == KEY_SGR_MOUSE)
        return read_sgr_mouse(s);
    return rc == KEY_CODE_YES ? map_key((int)ch, s) : map_char(ch);
}

/* A terminfo string capability, "" when absent or not a string. */
static const char *ti_str(const char *cap)
{
    const char *v = tigetstr(cap);
    return v && v != (const char *)-1 ? v : "";
}

/* 1 when the terminal speaks xterm's mouse protocol but curses would use
 * its X10 encoding (which cannot say a column past 223): terminfo's kmous
 * is xterm's "\e[M" and its XM does not ask for 1006 (tmux-256color,
 * screen-256color, rxvt-unicode), or TERM names an xterm-compatible
 * terminal. Not when curses asks for SGR itself (kmous "\e[<": xterm). */
static int sgr_wanted(void)
{
    const char *km = ti_str("kmous"), *xm = ti_str("XM"), *term = getenv("TERM");
    if (strncmp(km, "\033[<", 3) == 0 || strstr(xm, "1006"))
        return 0;
    if (strcmp(km, "\033[M") == 0)
        return 1;
    static const char *const xterms[] = {"xterm", "tmux", "screen", "rxvt", "alacritty",
                                         "kitty", "foot", "wezterm", "vte", "gnome", "konsole"};
    for (size_t i = 0; term && i < sizeof xterms / sizeof *xterms; i++)
        if (strncmp(term, xterms[i], strlen(xterms[i])) == 0)
            return 1;
    return 0;
}

/* Mouse: a click (button 1) and the wheel (buttons 4 and 5), in SGR 1006
 * mode on every xterm-compatible terminal, so that a click past column
 * 223 of a wide terminal lands. curses asks for it where terminfo says so
 * (XM, xterm's entry); elsewhere it is switched on here, after curses'
 * own request, and its reports (\e[<B;X;YM) read by read_sgr_mouse. */
static void mouse_on(void)
{
    mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
    mouseinterval(0);
    term_sgr = sgr_wanted();
    if (!term_sgr)
        return;
    define_key("\033[<", KEY_SGR_MOUSE);
    putp("\033[?1006h");
    fflush(stdout); /* putp writes through stdio, curses through its own buffer */
}

static void size(TuiIO *io, int *w, int *h)
{
    (void)io;
    *w = COLS;
    *h = LINES;
}

int term_open(TuiIO *io, int *utf8, CpErr *err)
{
    setlocale(LC_ALL, "");
    const char *cs = nl_langinfo(CODESET);
    *utf8 = cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
        return cp_err_set(err, "tui: needs a terminal (or --bench-keys for a headless run)");
    if (!initscr())
        return cp_err_set(err, "tui: cannot start the terminal");
    term_active = 1;
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    /* Home and End as tmux, screen and rxvt send them, whatever TERM says. */
    define_key("\033[1~", KEY_HOME);
    define_key("\033[4~", KEY_END);
    define_key("\033[7~", KEY_HOME);
    define_key("\033[8~", KEY_END);
    curs_set(0);
    mouse_on();
    setup_colors();
    io->read_key = read_key;
    io->paint = paint;
    io->size = size;
    io->ctx = NULL;
    io->sync_bg = 0; /* a person sees "reading the jobs..." and keys go on */
    return 0;
}

void term_close(void)
{
    if (!term_active)
        return;
    term_active = 0;
    if (term_sgr) {
        putp("\033[?1006l");
        fflush(stdout);
    }
    term_sgr = 0;
    endwin();
}
