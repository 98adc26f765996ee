/* The Windows build's stand-ins for POSIX calls (base/port.h); nothing elsewhere. */
#include "base/port.h"

#ifdef _WIN32
#include <io.h>
#include <stdint.h>
#include <string.h>
#include <windows.h>

ssize_t pk_pread(int fd, void *buf, size_t n, off_t off)
{
	OVERLAPPED o;
	memset(&o, 0, sizeof o);
	o.Offset = (DWORD)((uint64_t)off & 0xFFFFFFFFu);
	o.OffsetHigh = (DWORD)((uint64_t)off >> 32);
	DWORD got = 0;
	if (!ReadFile((HANDLE)_get_osfhandle(fd), buf, (DWORD)n, &got, &o))
		return GetLastError() == ERROR_HANDLE_EOF ? 0 : -1;
	return (ssize_t)got;
}
#else
typedef int pk_port_posix;   /* (the platform has every call) */
#endif
