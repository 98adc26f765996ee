/* Engine specifications and the engines file. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "proto/spec.h"

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	return s;
}

static int add_param(pk_engine_spec *o, const char *k, const char *v, char *err, size_t errsize)
{
	if (o->nparams == SPEC_MAX_PARAMS) {
		snprintf(err, errsize, "more than %d parameters", SPEC_MAX_PARAMS);
		return -1;
	}
	if (!*k || strlen(k) >= sizeof o->key[0] || strlen(v) >= sizeof o->value[0]) {
		snprintf(err, errsize, "the parameter '%s' is empty or too long", k);
		return -1;
	}
	for (const char *p = k; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-' && *p != '.') {
			snprintf(err, errsize, "the parameter name '%s' has a character other than letters, digits, '_', '-' and '.'", k);
			return -1;
		}
	snprintf(o->key[o->nparams], sizeof o->key[0], "%s", k);
	snprintf(o->value[o->nparams], sizeof o->value[0], "%s", v);
	o->nparams++;
	return 0;
}

/* The base name of a path without ".so" and a "lib" prefix: "guinn-cb". */
static void label_of_path(const char *path, char *out, size_t size)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	if (!strncmp(b, "lib", 3) && b[3])
		b += 3;
	size_t n = strcspn(b, ".");
	if (n >= size)
		n = size - 1;
	memcpy(out, b, n);
	out[n] = 0;
}

static int parse_direct(const char *text, pk_engine_spec *o, char *err, size_t errsize)
{
	/* nothing is cut: a spec that does not fit is refused (an option or an argument
	 * lost at the end would change what runs) */
	if (strlen(text) >= sizeof o->target) {
		snprintf(err, errsize, "the engine's spec is %zu bytes long: at most %zu", strlen(text), sizeof o->target - 1);
		return -1;
	}
	if (!strcmp(text, "pdnkit") || !strncmp(text, "pdnkit:", 7)) {
		o->kind = SPEC_PDNKIT;
		snprintf(o->target, sizeof o->target, "%s", text[6] ? text + 7 : "");
		snprintf(o->label, sizeof o->label, "pdnkit");
		return 0;
	}
	if (!strncmp(text, "cb:", 3)) {
		o->kind = SPEC_CB;
		char buf[2048];
		snprintf(buf, sizeof buf, "%s", text + 3);
		char *save = NULL, *tok = strtok_r(buf, ",", &save);
		if (!tok || !*trim(tok)) {
			snprintf(err, errsize, "cb: needs the path of a library (cb:PATH.so)");
			return -1;
		}
		snprintf(o->target, sizeof o->target, "%s", trim(tok));
		while ((tok = strtok_r(NULL, ",", &save))) {
			char *eq = strchr(tok, '=');
			if (!eq) {
				snprintf(err, errsize, "cb: '%s' is not key=value", trim(tok));
				return -1;
			}
			*eq = 0;
			if (add_param(o, trim(tok), trim(eq + 1), err, errsize) < 0)
				return -1;
		}
		label_of_path(o->target, o->label, sizeof o->label);
		return 0;
	}
	if (!strncmp(text, "hub:", 4)) {
		o->kind = SPEC_HUB;
		char buf[1024];
		snprintf(buf, sizeof buf, "%s", text + 4);
		char *cmd = trim(buf);
		if (!*cmd) {
			snprintf(err, errsize, "hub: needs a command (hub:COMMAND [ARGS])");
			return -1;
		}
		snprintf(o->target, sizeof o->target, "%s", cmd);
		char words[1024], *argv[64];
		if (spec_split(cmd, words, sizeof words, argv, 64) < 1) {
			snprintf(err, errsize, "hub: the command '%s' has an unbalanced quote or too many words", cmd);
			return -1;
		}
		label_of_path(argv[0], o->label, sizeof o->label);
		return 0;
	}
	if (!strncmp(text, "dxp:", 4)) {
		o->kind = SPEC_DXP;
		const char *hp = text + 4, *colon = strrchr(hp, ':');
		char *end;
		long port = colon ? strtol(colon + 1, &end, 10) : 0;
		if (!colon || colon == hp || !colon[1] || *end || port < 1 || port > 65535) {
			snprintf(err, errsize, "dxp: needs HOST:PORT (a port from 1 to 65535), not '%s'", hp);
			return -1;
		}
		snprintf(o->target, sizeof o->target, "%s", hp);
		snprintf(o->label, sizeof o->label, "dxp %.50s", hp);
		return 0;
	}
	snprintf(err, errsize, "'%s' is no engine: pdnkit[:OPTIONS], cb:PATH.so[,key=value...], hub:COMMAND or "
		 "dxp:HOST:PORT, or a name of the engines file", text);
	return -1;
}

int spec_file_check(const char *file, char *err, size_t errsize)
{
	struct stat st;
	if (stat(file, &st) < 0) {
		snprintf(err, errsize, "%s: %s", file, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errsize, "%s: not a regular file (%s): an engines file is a text file", file,
			 S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a pipe" :
			 S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "not a file");
		return -1;
	}
	if (st.st_size > SPEC_FILE_MAX) {
		snprintf(err, errsize, "%s: %lld bytes: an engines file is at most %d", file, (long long)st.st_size, SPEC_FILE_MAX);
		return -1;
	}
	return 0;
}

/* Looks name up in the file: 1 found (into o), 0 not there, -1 an error (err). */
static int lookup(const char *file, const char *name, pk_engine_spec *o, char *err, size_t errsize)
{
	if (spec_file_check(file, err, errsize) < 0)
		return -1;
	FILE *f = fopen(file, "r");
	if (!f) {
		snprintf(err, errsize, "%s: %s", file, strerror(errno));
		return -1;
	}
	char line[2048], section[64] = "";
	int lineno = 0, found = 0, have_spec = 0;
	pk_engine_spec tmp;
	memset(&tmp, 0, sizeof tmp);
	while (fgets(line, sizeof line, f)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, errsize, "%s:%d: the line is longer than %zu bytes", file, lineno, sizeof line - 2);
			fclose(f);
			return -1;
		}
		char *s = trim(line);
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			char *e = strchr(s, ']');
			if (!e || e[1] || e == s + 1 || (size_t)(e - s - 1) >= sizeof section) {
				snprintf(err, errsize, "%s:%d: '%s' is not a [name] line", file, lineno, s);
				fclose(f);
				return -1;
			}
			if (found)
				break;
			*e = 0;
			snprintf(section, sizeof section, "%s", s + 1);
			found = !strcmp(section, name);
			continue;
		}
		char *eq = strchr(s, '=');
		if (!eq) {
			snprintf(err, errsize, "%s:%d: '%s' is not key = value", file, lineno, s);
			fclose(f);
			return -1;
		}
		if (!*section) {
			snprintf(err, errsize, "%s:%d: key = value before the first [name]", file, lineno);
			fclose(f);
			return -1;
		}
		if (!found)
			continue;
		*eq = 0;
		char *k = trim(s), *v = trim(eq + 1);
		char why[300];
		if (!strcmp(k, "spec")) {
			int np = tmp.nparams;
			char keys[SPEC_MAX_PARAMS][64], vals[SPEC_MAX_PARAMS][256];
			memcpy(keys, tmp.key, sizeof keys);
			memcpy(vals, tmp.value, sizeof vals);
			tmp.nparams = 0;
			if (parse_direct(v, &tmp, why, sizeof why) < 0) {
				snprintf(err, errsize, "%s:%d: %s", file, lineno, why);
				fclose(f);
				return -1;
			}
			/* parameters given before the spec line are kept after the spec's own */
			for (int i = 0; i < np; i++)
				if (add_param(&tmp, keys[i], vals[i], why, sizeof why) < 0) {
					snprintf(err, errsize, "%s:%d: %s", file, lineno, why);
					fclose(f);
					return -1;
				}
			have_spec = 1;
		} else if (add_param(&tmp, k, v, why, sizeof why) < 0) {
			snprintf(err, errsize, "%s:%d: %s", file, lineno, why);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	if (!found)
		return 0;
	if (!have_spec) {
		snprintf(err, errsize, "%s: [%s] has no spec = line", file, name);
		return -1;
	}
	if (tmp.nparams && tmp.kind == SPEC_PDNKIT) {
		snprintf(err, errsize, "%s: [%s]: the built-in engine takes its options in its spec (pdnkit:--depth 8), not as keys", file, name);
		return -1;
	}
	*o = tmp;
	snprintf(o->label, sizeof o->label, "%s", name);
	return 1;
}

int spec_parse(const char *text, const char *engines_file, pk_engine_spec *out, char *err, size_t errsize)
{
	memset(out, 0, sizeof *out);
	if (strlen(text) >= sizeof out->target) {
		snprintf(err, errsize, "the engine's spec is %zu bytes long: at most %zu", strlen(text), sizeof out->target - 1);
		return -1;
	}
	bool plain = *text && strchr(text, ':') == NULL;
	if (plain && strcmp(text, "pdnkit") != 0) {
		if (!engines_file) {
			snprintf(err, errsize, "'%s' is no engine: pdnkit[:OPTIONS], cb:PATH.so[,key=value...], hub:COMMAND "
				 "or dxp:HOST:PORT (a name needs an engines file: --engines FILE)", text);
			return -1;
		}
		int k = lookup(engines_file, text, out, err, errsize);
		if (k < 0)
			return -1;
		if (k == 0) {
			snprintf(err, errsize, "no engine '%s' in %s", text, engines_file);
			return -1;
		}
	} else if (parse_direct(text, out, err, errsize) < 0)
		return -1;
	snprintf(out->text, sizeof out->text, "%s", text);
	return 0;
}

const char *spec_file_name(const char *engines_file, int i, char *buf, size_t size)
{
	char why[300];
	FILE *f = engines_file && spec_file_check(engines_file, why, sizeof why) == 0 ? fopen(engines_file, "r") : NULL;
	if (!f)
		return NULL;
	char line[2048];
	int k = 0;
	const char *r = NULL;
	while (fgets(line, sizeof line, f)) {
		char *s = trim(line), *e;
		if (*s == '[' && (e = strchr(s, ']')) && e > s + 1) {
			if (k++ == i) {
				*e = 0;
				snprintf(buf, size, "%s", s + 1);
				r = buf;
				break;
			}
		}
	}
	fclose(f);
	return r;
}

int spec_split(const char *command, char *buf, size_t size, char **argv, int max)
{
	size_t o = 0;
	int n = 0;
	const char *s = command;
	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		if (n == max - 1)
			return -1;
		argv[n++] = buf + o;
		while (*s && !isspace((unsigned char)*s)) {
			if (*s == '"' || *s == '\'') {
				char q = *s++;
				while (*s && *s != q) {
					if (o + 1 >= size)
						return -1;
					buf[o++] = *s++;
				}
				if (*s != q)
					return -1;
				s++;
			} else {
				if (o + 1 >= size)
					return -1;
				buf[o++] = *s++;
			}
		}
		if (o + 1 >= size)
			return -1;
		buf[o++] = 0;
	}
	argv[n] = NULL;
	return n;
}
