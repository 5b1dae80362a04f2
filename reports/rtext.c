#include "reports/rtext.h"

#include <string.h>

size_t rtext_char(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    if (u[0] < 0x20 || u[0] == 0x7f)
        return 0;
    if (u[0] < 0x80)
        return 1;
    size_t len = u[0] >= 0xf0 && u[0] <= 0xf4 ? 4 : u[0] >= 0xe0 ? 3 : u[0] >= 0xc2 ? 2 : 0;
    if (len == 0 || (len == 3 && u[0] > 0xef))
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((u[i] & 0xc0) != 0x80)
            return 0;
    if (u[0] == 0xc2 && u[1] < 0xa0) /* C1 controls */
        return 0;
    if ((u[0] == 0xe0 && u[1] < 0xa0) || (u[0] == 0xf0 && u[1] < 0x90) ||
        (u[0] == 0xf4 && u[1] > 0x8f) || (u[0] == 0xed && u[1] > 0x9f))
        return 0; /* overlong, beyond U+10FFFF, surrogates */
    return len;
}

void rtext_put(FILE *out, const char *s, void (*put)(FILE *out, const char *c, size_t len))
{
    while (*s) {
        size_t len = rtext_char(s);
        if (len == 0) {
            fputc('?', out);
            s++;
            continue;
        }
        put(out, s, len);
        s += len;
    }
}

void rtext_clean(char *dst, size_t n, const char *s)
{
    size_t o = 0;
    while (*s) {
        size_t len = rtext_char(s);
        const char *from = len ? s : "?";
        size_t put = len ? len : 1;
        if (o + put + 1 > n)
            break;
        memcpy(dst + o, from, put);
        o += put;
        s += len ? len : 1;
    }
    dst[o] = '\0';
}
