import struct, sys, os
case, out = sys.argv[1], sys.argv[2]

def uleb(v):
    b = bytearray()
    while True:
        x = v & 0x7f
        v >>= 7
        b.append(x | (0x80 if v else 0))
        if not v:
            return bytes(b)

def unit(body):
    # DWARF 4, 32-bit: unit length, version, abbreviation table offset 0, address size
    rest = struct.pack('<HIB', 4, 0, 8) + body
    return struct.pack('<I', len(rest)) + rest

line, strs = b'\0' * 4, b'\0'
if case == 'abbrevs':
    # 65,536 abbreviations numbered down (code 1 the last of the table); a million one-byte DIEs of code 1
    abbrev = b''.join(uleb(c) + uleb(0x34) + b'\0' + b'\0\0' for c in range(65536, 0, -1)) + b'\0'
    info = unit(b'\x01' * 1000001)
elif case == 'strings':
    # a .debug_str of 4 MiB whose one NUL is its last byte; 200,000 DIEs naming its first string (DW_FORM_strp)
    abbrev = uleb(1) + uleb(0x34) + b'\0' + uleb(0x03) + uleb(0x0e) + b'\0\0' + b'\0'
    strs = b'a' * (4 << 20) + b'\0'
    info = unit((b'\x01' + struct.pack('<I', 0)) * 200001)
elif case == 'lines':
    # 4,096 units whose DIEs name one line table (DW_AT_stmt_list 0) of a million DW_LNS_copy
    abbrev = uleb(1) + uleb(0x11) + b'\0' + uleb(0x10) + uleb(0x17) + b'\0\0' + b'\0'
    info = unit(b'\x01' + struct.pack('<I', 0)) * 4096
    hdr = struct.pack('<BBBbBB', 1, 1, 1, -5, 14, 13) + bytes([0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1])
    hdr += b'\0' + b'a.c\0\0\0\0' + b'\0'
    body = struct.pack('<HI', 4, len(hdr)) + hdr + b'\x01' * (1 << 20)
    line = struct.pack('<I', len(body)) + body
for name, data in (('info', info), ('abbrev', abbrev), ('line', line), ('str', strs)):
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)
