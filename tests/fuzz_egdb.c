/* libFuzzer target: an endgame database slice file from arbitrary bytes. Opening it must
 * refuse or accept it cleanly, and every probe of an accepted file must answer or report
 * a damaged block, never crash or read outside what it allocated. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "egdb/egdb.h"
#include "rules/gen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	snprintf(path, sizeof path, "/tmp/fuzz-egdb-%d.egdb", (int)getpid());
	FILE *f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	pk_egdb *db = egdb_new(1 << 20);
	char err[8192];
	if (db && egdb_add_file(db, path, err, sizeof err) == 0) {
		int n;
		pk_egdb_slice_info *v = egdb_slices(db, &n);
		for (int i = 0; v && i < n; i++) {
			pk_slice s;
			slice_init(&s, &v[i].mat);
			uint64_t step = s.size / 64 + 1;
			for (uint64_t idx = 0; idx < s.size; idx += step) {
				pk_pos p;
				pk_egdb_result r;
				if (slice_position(&s, idx, &p))
					egdb_probe(db, &p, &r);
			}
		}
		free(v);
	}
	egdb_free(db);
	unlink(path);
	return 0;
}
