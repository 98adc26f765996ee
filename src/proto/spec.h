/* An engine named once, the same way everywhere (--engine SPEC):
 *   pdnkit[:OPTIONS]            the built-in engine with its options ("--depth 8")
 *   cb:PATH.so[,key=value...]   a CheckerBoard-API library; each key=value is sent as
 *                               enginecommand("set key value")
 *   hub:COMMAND [ARGS]          a Hub engine started as a child process
 *   dxp:HOST:PORT               a DXP engine listening there
 *   NAME                        an engine of the engines file:
 *
 *   # comment
 *   [guinn]
 *   spec = cb:/opt/guinn/libguinn-cb.so
 *   hashsize = 128              (any other key: a parameter, as key=value above)
 */
#ifndef PK_SPEC_H
#define PK_SPEC_H

#include <stddef.h>

#define SPEC_MAX_PARAMS 16

typedef enum { SPEC_PDNKIT, SPEC_CB, SPEC_HUB, SPEC_DXP } pk_spec_kind;

typedef struct {
	pk_spec_kind kind;
	char label[64];             /* how tables and PDN name it: the file's name, else derived */
	char target[1024];          /* pdnkit: its options; cb: the library; hub: the command; dxp: host:port */
	int nparams;
	char key[SPEC_MAX_PARAMS][64];
	char value[SPEC_MAX_PARAMS][256];
	char text[1200];            /* the spec as written (after the file's lookup) */
} pk_engine_spec;

/* Parses text; a bare name is looked up in the engines file (may be NULL). 0, or -1 with
 * the reason in err. */
/* The largest engines file read (bytes). */
#define SPEC_FILE_MAX (1 << 20)
/* Whether file can be read as an engines file: a regular file of at most SPEC_FILE_MAX
 * bytes (a pipe or a device would never end); -1 with the reason in err. */
int spec_file_check(const char *file, char *err, size_t errsize);
int spec_parse(const char *text, const char *engines_file, pk_engine_spec *out, char *err, size_t errsize);

/* The names of the engines file, one after another (i from 0): the name, or NULL after
 * the last or when the file cannot be read. */
const char *spec_file_name(const char *engines_file, int i, char *buf, size_t size);

/* The command line of a hub: spec split into words ("..." and '...' group, no other
 * shell syntax) into argv (at most max - 1 words, NULL-terminated) in buf. The number of
 * words, or -1 when unbalanced or too many. */
int spec_split(const char *command, char *buf, size_t size, char **argv, int max);

#endif
