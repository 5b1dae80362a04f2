#include "reports/anon.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

void anon_name(const char *prefix, const char *name, char *buf, size_t n)
{
    static const char digits[] = "abcdefghijkmnpqrstuvwxyz23456789"; /* 32, no look-alikes */
    uint64_t h = 14695981039346656037ULL;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        h ^= *p;
        h *= 1099511628211ULL;
    }
    char code[7];
    for (int i = 0; i < 6; i++, h >>= 5)
        code[i] = digits[h & 31];
    code[6] = '\0';
    snprintf(buf, n, "%s-%s", prefix, code);
}

const char *anon_maybe(int on, const char *prefix, const char *name, char *buf, size_t n)
{
    if (!on || !name || strcmp(name, "all") == 0)
        return name;
    anon_name(prefix, name, buf, n);
    return buf;
}
