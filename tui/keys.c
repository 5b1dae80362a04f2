#include "tui/keys.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/utf8.h"

typedef struct KeyName {
    const char *name;
    int key;
} KeyName;

static const KeyName key_names[] = {
    {"Up", TUI_KEY_UP},         {"Down", TUI_KEY_DOWN},      {"Left", TUI_KEY_LEFT},
    {"Right", TUI_KEY_RIGHT},   {"PgUp", TUI_KEY_PGUP},      {"PgDn", TUI_KEY_PGDN},
    {"Home", TUI_KEY_HOME},     {"End", TUI_KEY_END},        {"Enter", TUI_KEY_ENTER},
    {"Esc", TUI_KEY_ESC},       {"BS", TUI_KEY_BACKSPACE},   {"Del", TUI_KEY_DELETE},
    {"Tab", TUI_KEY_TAB},       {"S-Tab", TUI_KEY_BTAB},     {"F1", TUI_KEY_F1},
    {"F2", TUI_KEY_F2},         {"F3", TUI_KEY_F3},          {"F4", TUI_KEY_F4},
    {"F5", TUI_KEY_F5},         {"F6", TUI_KEY_F6},          {"F7", TUI_KEY_F7},
    {"F8", TUI_KEY_F8},         {"F9", TUI_KEY_F9},          {"F10", TUI_KEY_F10},
    {"Resize", TUI_KEY_RESIZE}, {"Mouse", TUI_KEY_MOUSE},    {"C-l", TUI_KEY_CTRL_L},
    {"C-u", TUI_KEY_CTRL_U},    {"C-w", TUI_KEY_CTRL_W},     {"C-r", TUI_KEY_CTRL_R},
    {"WheelUp", TUI_KEY_WHEEL_UP}, {"WheelDown", TUI_KEY_WHEEL_DOWN},
    {"Space", ' '},             {"lt", '<'},
};

int tui_key_parse(const char **s)
{
    if (!*s || !**s)
        return TUI_KEY_EOF;
    if (**s == '<') {
        const char *end = strchr(*s, '>');
        if (end && end > *s + 1) {
            size_t n = (size_t)(end - *s - 1);
            for (size_t i = 0; i < sizeof key_names / sizeof key_names[0]; i++) {
                if (strlen(key_names[i].name) == n &&
                    strncasecmp(key_names[i].name, *s + 1, n) == 0) {
                    *s = end + 1;
                    return key_names[i].key;
                }
            }
            return TUI_KEY_EOF;
        }
    }
    return (int)utf8_next(s);
}

const char *tui_key_name(int key, char *buf, size_t n)
{
    for (size_t i = 0; i < sizeof key_names / sizeof key_names[0]; i++) {
        if (key_names[i].key == key && key != ' ' && key != '<') {
            snprintf(buf, n, "<%s>", key_names[i].name);
            return buf;
        }
    }
    if (key >= 0x20 && key < 0x110000 && n >= 5) {
        int k = utf8_put((uint32_t)key, buf);
        buf[k] = '\0';
    } else {
        snprintf(buf, n, "<%d>", key);
    }
    return buf;
}

int tui_key_printable(int key)
{
    return key >= 0x20 && key < 0x110000 && key != 0x7f &&
           utf8_cp_clean((uint32_t)key) == (uint32_t)key;
}
