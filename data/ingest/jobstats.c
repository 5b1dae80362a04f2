#include "data/ingest/jobstats.h"

#include <cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define JS_MAX_JSON ((size_t)1 << 20) /* summaries are under 10 KB */

static int b64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

/* Decode base64 s[0..n) (padding optional) into a new buffer; NULL when
 * s is not base64. Caller frees. */
static unsigned char *b64_decode(const char *s, size_t n, size_t *out_len)
{
    while (n > 0 && s[n - 1] == '=')
        n--;
    unsigned char *out = xmalloc(n * 3 / 4 + 3);
    size_t o = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        int v = b64_value((unsigned char)s[i]);
        if (v < 0) {
            free(out);
            return NULL;
        }
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (unsigned char)(acc >> bits);
        }
    }
    *out_len = o;
    return out;
}

/* Inflate gzip data into a NUL-terminated string of at most JS_MAX_JSON
 * bytes; NULL when it is not gzip or too large. Caller frees. */
static char *gunzip(const unsigned char *in, size_t n)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
        return NULL;
    size_t cap = 4096, len = 0;
    char *out = xmalloc(cap + 1);
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)n;
    int rc;
    do {
        if (len == cap) {
            if (cap >= JS_MAX_JSON)
                break;
            cap *= 2;
            out = xrealloc(out, cap + 1);
        }
        z.next_out = (Bytef *)out + len;
        z.avail_out = (uInt)(cap - len);
        rc = inflate(&z, Z_NO_FLUSH);
        len = cap - z.avail_out;
    } while (rc == Z_OK);
    inflateEnd(&z);
    if (rc != Z_STREAM_END) {
        free(out);
        return NULL;
    }
    out[len] = '\0';
    return out;
}

/* Over every GPU of every node: the largest memory used, the mean use. */
static void summarise(const cJSON *root, JobStats *out)
{
    const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(root, "nodes");
    double mem_max = -1, util_sum = 0;
    int util_n = 0;
    const cJSON *node;
    cJSON_ArrayForEach(node, nodes)
    {
        const cJSON *mem = cJSON_GetObjectItemCaseSensitive(node, "gpu_used_memory");
        const cJSON *util = cJSON_GetObjectItemCaseSensitive(node, "gpu_utilization");
        const cJSON *g;
        cJSON_ArrayForEach(g, mem)
        {
            if (cJSON_IsNumber(g) && isfinite(g->valuedouble) && g->valuedouble >= 0 &&
                g->valuedouble > mem_max)
                mem_max = g->valuedouble;
        }
        cJSON_ArrayForEach(g, util)
        {
            if (cJSON_IsNumber(g) && isfinite(g->valuedouble) && g->valuedouble >= 0 &&
                g->valuedouble <= 100) {
                util_sum += g->valuedouble;
                util_n++;
            }
        }
    }
    out->gpu_mem_gib = mem_max >= 0 ? mem_max / (1024.0 * 1024.0 * 1024.0) : -1;
    out->gpu_util = util_n > 0 ? util_sum / util_n : -1;
}

int jobstats_parse(const char *s, size_t n, JobStats *out, CpErr *err)
{
    out->gpu_mem_gib = -1;
    out->gpu_util = -1;
    if (n < 4 || memcmp(s, "JS1:", 4) != 0)
        return 0;
    s += 4, n -= 4;
    if ((n == 5 && memcmp(s, "Short", 5) == 0) || (n == 4 && memcmp(s, "None", 4) == 0))
        return 0;
    size_t zlen;
    unsigned char *z = b64_decode(s, n, &zlen);
    if (!z)
        return cp_err_set(err, "bad jobstats summary: not base64");
    char *json = gunzip(z, zlen);
    free(z);
    if (!json)
        return cp_err_set(err, "bad jobstats summary: not gzip data");
    cJSON *root = cJSON_Parse(json);
    free(json);
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return cp_err_set(err, "bad jobstats summary: not a JSON object");
    }
    summarise(root, out);
    cJSON_Delete(root);
    return 1;
}
