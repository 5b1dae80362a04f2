/* utf8: see utf8.h. */
#include "core/utf8.h"

#include <stddef.h>

/* Continuation bytes of a sequence led by b, or -1 for a bad lead. */
static int utf8_tail(unsigned char b, uint32_t *cp)
{
    if (b < 0x80) {
        *cp = b;
        return 0;
    }
    if (b >= 0xc2 && b <= 0xdf) {
        *cp = b & 0x1fu;
        return 1;
    }
    if (b >= 0xe0 && b <= 0xef) {
        *cp = b & 0x0fu;
        return 2;
    }
    if (b >= 0xf0 && b <= 0xf4) {
        *cp = b & 0x07u;
        return 3;
    }
    return -1;
}

uint32_t utf8_next(const char **s)
{
    const unsigned char *p = (const unsigned char *)*s;
    uint32_t cp;
    int tail = utf8_tail(p[0], &cp);
    if (tail < 0) {
        *s += 1;
        return UTF8_REPLACEMENT;
    }
    for (int i = 1; i <= tail; i++) {
        if ((p[i] & 0xc0u) != 0x80u) {
            *s += 1;
            return UTF8_REPLACEMENT;
        }
        cp = (cp << 6) | (p[i] & 0x3fu);
    }
    static const uint32_t min_of[] = {0, 0x80, 0x800, 0x10000};
    *s += 1 + tail;
    if (cp < min_of[tail] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return UTF8_REPLACEMENT; /* overlong, out of range, surrogate */
    return cp;
}

int utf8_put(uint32_t cp, char *buf)
{
    if (cp < 0x80) {
        buf[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        buf[0] = (char)(0xc0 | (cp >> 6));
        buf[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        buf[0] = (char)(0xe0 | (cp >> 12));
        buf[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        buf[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    buf[0] = (char)(0xf0 | (cp >> 18));
    buf[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    buf[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    buf[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

static int in_ranges(uint32_t cp, const uint32_t (*r)[2], size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (cp >= r[i][0] && cp <= r[i][1])
            return 1;
    return 0;
}

/* Characters that steer the terminal or the text direction. */
static int is_hostile(uint32_t cp)
{
    static const uint32_t r[][2] = {{0x00, 0x1f},     {0x7f, 0x9f},     {0x061c, 0x061c},
                                    {0x200e, 0x200f}, {0x2028, 0x202e}, {0x2066, 0x2069},
                                    {0xfff9, 0xfffd}, {0xe0000, 0xe007f}};
    return in_ranges(cp, r, sizeof r / sizeof r[0]);
}

/* Marks that take no column of their own. */
static int is_zero_width(uint32_t cp)
{
    static const uint32_t r[][2] = {{0x0300, 0x036f}, {0x0483, 0x0489}, {0x0591, 0x05bd},
                                    {0x0610, 0x061a}, {0x064b, 0x065f}, {0x200b, 0x200d},
                                    {0x20d0, 0x20ff}, {0xfe00, 0xfe0f}, {0xfe20, 0xfe2f},
                                    {0xfeff, 0xfeff}, {0x1ab0, 0x1aff}, {0x1dc0, 0x1dff}};
    return in_ranges(cp, r, sizeof r / sizeof r[0]);
}

static int is_wide(uint32_t cp)
{
    static const uint32_t r[][2] = {
        {0x1100, 0x115f},   {0x2e80, 0x303e},   {0x3041, 0x33ff},   {0x3400, 0x4dbf},
        {0x4e00, 0x9fff},   {0xa000, 0xa4cf},   {0xac00, 0xd7a3},   {0xf900, 0xfaff},
        {0xfe30, 0xfe4f},   {0xff00, 0xff60},   {0xffe0, 0xffe6},   {0x1f300, 0x1f64f},
        {0x1f900, 0x1f9ff}, {0x20000, 0x2fffd}, {0x30000, 0x3fffd}};
    return in_ranges(cp, r, sizeof r / sizeof r[0]);
}

uint32_t utf8_cp_clean(uint32_t cp)
{
    return is_hostile(cp) ? '?' : cp;
}

int utf8_cp_width(uint32_t cp)
{
    if (is_hostile(cp))
        return 1; /* shown as '?' */
    if (is_zero_width(cp))
        return 0;
    return is_wide(cp) ? 2 : 1;
}

int utf8_width(const char *s)
{
    int w = 0;
    while (s && *s)
        w += utf8_cp_width(utf8_next(&s));
    return w;
}
