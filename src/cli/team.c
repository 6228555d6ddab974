/* The team commands run in (team.h): which one, and how the inputs are split across it. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "team.h"

typedef unsigned __int128 u128; /* gcc and clang */

static const cli_team *current;

void cli_set_team(const cli_team *t) { current = t; }

const cli_team *cli_team_get(void) { return current; }

/* Input i goes to the member in whose share of the bytes its middle falls: the members'
 * ranges are contiguous (the middles grow with i) and each holds about total/members bytes.
 * Without any size known, the inputs are dealt out by count. */
void cli_team_split(int members, int n, const int64_t *sizes, int *first)
{
    uint64_t total = 0;
    for (int i = 0; i < n; i++)
        total += sizes[i] > 0 ? (uint64_t)sizes[i] : 0;
    int r = 0;
    uint64_t before = 0;
    first[0] = 0;
    for (int i = 0; i < n; i++) {
        uint64_t s = sizes[i] > 0 ? (uint64_t)sizes[i] : 0;
        /* the member of input i: floor(middle * members / total), in 128 bits (no overflow) */
        u128 mid = total ? (u128)before * 2 + s : (u128)i * 2 + 1;
        u128 all = total ? (u128)total * 2 : (u128)n * 2;
        int m = (int)(mid * (unsigned)members / all);
        if (m >= members)
            m = members - 1;
        while (r < m)
            first[++r] = i;
        before += s;
    }
    while (r < members)
        first[++r] = n;
}

int cli_team_writes(const cli_ctx *ctx) { return !ctx->team || ctx->team->rank == 0; }

void cli_part_set(cli_part_bytes *p, cli_part_state state, uint8_t *data, size_t size)
{
    p->state = state;
    p->data = data;
    p->size = data ? size : 0;
}

void cli_part_fail(cli_part_bytes *p, const char *message)
{
    size_t n = message ? strlen(message) : 0;
    p->state = CLI_PART_FAILED;
    p->data = n ? malloc(n) : NULL;
    p->size = p->data ? n : 0;
    if (p->data)
        memcpy(p->data, message, n);
}

void cli_part_free(cli_part_bytes *p)
{
    free(p->data);
    p->data = NULL;
    p->size = 0;
    p->state = CLI_PART_EMPTY;
}
