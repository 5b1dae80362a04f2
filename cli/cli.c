#include "cli/cli.h"

#include <cJSON.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/store.h"
#include "reports/rtext.h"

Store *cli_store(CliCtx *ctx)
{
    if (ctx->store)
        return ctx->store;
    CpErr err;
    if (!ctx->may_create && access(ctx->db_path, F_OK) != 0) {
        cli_error("%s: no such database (capplan import or capplan demo creates one)",
                  ctx->db_path);
        return NULL;
    }
    ctx->store = ctx->read_only ? store_open_read(ctx->db_path, &err)
                                : store_open(ctx->db_path, &err);
    if (!ctx->store)
        cli_error("%s", err.msg);
    return ctx->store;
}

int cli_exit_code(const CliCtx *ctx, int rc)
{
    int f = store_fault();
    if (f == STORE_FAULT_CORRUPT) {
        if (rc == 0)
            cli_error("%s: SQLite reports the database corrupt; `capplan check` says where",
                      ctx->db_path);
        return CLI_EXIT_CORRUPT;
    }
    if (f == STORE_FAULT_LOCKED && rc == 1)
        return CLI_EXIT_LOCKED;
    return rc;
}

int cli_print_json(const cJSON *o, FILE *out)
{
    char *text = cJSON_Print(o);
    if (!text)
        return -1;
    for (const char *s = text; *s;) {
        size_t len = (unsigned char)*s < 0x80 ? 1 : rtext_char(s);
        if (len == 0) {
            fputc('?', out);
            s++;
        } else {
            fwrite(s, 1, len, out);
            s += len;
        }
    }
    free(text);
    fputc('\n', out);
    return ferror(out) ? -1 : 0;
}

void cli_sanitize(char *dst, size_t dstsz, const char *src)
{
    size_t o = 0;
    const unsigned char *s = (const unsigned char *)src;
    while (*s && o + 1 < dstsz) {
        unsigned char c = *s;
        if (c < 0x20 || c == 0x7f) {
            dst[o++] = '?';
            s++;
        } else if (c == 0xc2 && s[1] >= 0x80 && s[1] < 0xa0) { /* C1 controls */
            dst[o++] = '?';
            s += 2;
        } else {
            dst[o++] = (char)c;
            s++;
        }
    }
    dst[o] = '\0';
}

int cli_error(const char *fmt, ...)
{
    char raw[1024], clean[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    cli_sanitize(clean, sizeof clean, raw);
    fprintf(stderr, "capplan: %s\n", clean);
    return 1;
}

int cli_usage(const CmdEntry *e)
{
    fprintf(stderr, "usage: %s\n", e->usage);
    return 2;
}

int cli_wants_help(const CmdEntry *e, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: %s\n%s", e->usage, e->help);
            return 1;
        }
    }
    return 0;
}
