#ifndef KEYS_H
#define KEYS_H
/* keys: the dashboard's key codes, independent of curses. A printable key
 * is its Unicode code point; the others are numbered above the Unicode
 * range. term.c translates curses' codes into these; the headless mode
 * reads them from a key script such as "2/ab<Enter>s<Esc>jj<F10>".
 * Pure. */

#include <stddef.h>

enum {
    TUI_KEY_EOF = -1,      /* no more keys (end of a script, closed terminal) */
    TUI_KEY_TIMEOUT = -2,  /* no key within the wait */
    TUI_KEY_UP = 0x110001,
    TUI_KEY_DOWN,
    TUI_KEY_LEFT,
    TUI_KEY_RIGHT,
    TUI_KEY_PGUP,
    TUI_KEY_PGDN,
    TUI_KEY_HOME,
    TUI_KEY_END,
    TUI_KEY_ENTER,
    TUI_KEY_ESC,
    TUI_KEY_BACKSPACE,
    TUI_KEY_DELETE,
    TUI_KEY_TAB,
    TUI_KEY_BTAB,
    TUI_KEY_F1,
    TUI_KEY_F2,
    TUI_KEY_F3,
    TUI_KEY_F4,
    TUI_KEY_F5,
    TUI_KEY_F6,
    TUI_KEY_F7,
    TUI_KEY_F8,
    TUI_KEY_F9,
    TUI_KEY_F10,
    TUI_KEY_RESIZE,
    TUI_KEY_MOUSE,         /* a click; position in TuiState.mouse_x/y */
    TUI_KEY_CTRL_L,
    TUI_KEY_CTRL_U,
    TUI_KEY_CTRL_W,
    TUI_KEY_CTRL_R,
    TUI_KEY_WHEEL_UP,      /* the mouse wheel; position in TuiState.mouse_x/y */
    TUI_KEY_WHEEL_DOWN,
    TUI_KEY_LAST
};

/* The next key of a script, advancing *s: a UTF-8 character, or a name in
 * angle brackets (<Enter>, <Esc>, <Up>, <F10>, <BS>, <Tab>, <Resize>,
 * <C-l>, <C-w>, <C-r>, <WheelUp>, <lt> for '<'...). TUI_KEY_EOF at the end; an unknown name is
 * -1 as well, with *s left on it. */
int tui_key_parse(const char **s);

/* A key's name as tui_key_parse reads it ("j", "<Enter>"). Returns buf. */
const char *tui_key_name(int key, char *buf, size_t n);

/* 1 for a key that types a character into a prompt. */
int tui_key_printable(int key);

#endif
