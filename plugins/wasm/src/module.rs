//! The module under construction: its function index space (the runtime
//! functions are generated on first use, specialised by Isu type), globals,
//! static data, exports and custom sections, and the final encoding.

use crate::asm::Asm;
use crate::layout::{val_type, Field, Structs, STATIC_BASE};
use crate::runtime;
use isu_plugin_api::{ExecLimits, Type};
use std::collections::{BTreeMap, VecDeque};
use wasm_encoder::{
    CodeSection, ConstExpr, CustomSection, DataSection, ExportKind, ExportSection, Function,
    FunctionSection, GlobalSection, GlobalType, MemorySection, MemoryType, Module, NameMap,
    NameSection, TypeSection, ValType,
};

/// The globals, by index.
pub mod g {
    /// The first free byte of the heap's bump region (`i32`).
    pub const HEAP_TOP: u32 = 0;
    /// The first byte of the heap (`i32`, constant).
    pub const HEAP_BASE: u32 = 1;
    /// The code of the last runtime error, 0 when none (`i32`).
    pub const ERR_CODE: u32 = 2;
    /// The step index of the last runtime error, -1 when none (`i32`).
    pub const ERR_STEP: u32 = 3;
    /// The fuel of a call (`i64`).
    pub const MAX_STEPS: u32 = 4;
    /// The size limit (`i64`).
    pub const MAX_SIZE: u32 = 5;
    /// The read position of the argument decoder (`i32`).
    pub const CURSOR: u32 = 6;
    /// The byte length of the last result (`i32`).
    pub const RESULT_LEN: u32 = 7;
    /// JSON nodes counted while sizing a result (`i64`).
    pub const NODES: u32 = 8;
    /// The step whose RETURN is being encoded (`i32`).
    pub const RET_STEP: u32 = 9;
    /// The memory limit (`i64`, unsigned).
    pub const MAX_MEMORY: u32 = 10;
    /// The step index of the pack call running, -1 when none (`i32`): where
    /// a pack lowering's `isu.fail` raises its error ([`crate::pack`]).
    pub const PACK_STEP: u32 = 11;
    /// The map of the last entry a search found (`i32`, 0 when none) and
    /// that entry's index (`i32`): a hint for the next search
    /// ([`crate::runtime::map`]), which checks it before trusting it.
    pub const MAP_HINT: u32 = 12;
    pub const MAP_HINT_AT: u32 = 13;
}

/// A runtime function, specialised by type where its code depends on it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rt {
    Raise,
    Alloc,
    Free,
    Reset,
    Inc,
    Drop(Type),
    Grow(Type),
    StrNew,
    StrEq,
    StrCmp,
    Eq(Type),
    /// An empty array whose slots have `1 << shift` bytes.
    ArrNew(i32),
    Push(Type),
    Pop(Type),
    SliceArr(Type),
    SliceStr,
    ConcatStr,
    ConcatArr(Type),
    MapFind(Type),
    MapGet(Type),
    MapGetOr(Type),
    MapSet(Type),
    MapKeys(Type),
    Split,
    Join,
    Lower,
    Upper,
    /// The KMP failure table of a string (`i32` per byte), 0 for "".
    KmpTable,
    /// `find(hay, needle, table, from)`: the byte offset of the first
    /// occurrence at or after `from`, or -1.
    Find,
    /// `str_find(hay, needle)`: `find` from 0 with a table of its own.
    StrFind,
    /// `INDEX_OF(string, string)`.
    IndexOfStr,
    /// `INDEX_OF(T[], T)` of the array type.
    IndexOfArr(Type),
    /// `SPLIT(string, string)`.
    SplitSep,
    /// `SORT` of the array type.
    Sort(Type),
    ToString,
    ParseInt,
    /// `float_repr(x) -> s`: TO_STRING of a float (`runtime/float.wat`).
    FloatRepr,
    /// `parse_float(s, step) -> x`: PARSE_FLOAT.
    ParseFloat,
    Repeat(Type),
    Chars,
    /// `REVERSE` of the array type.
    ReverseArr(Type),
    /// `REVERSE` of a string.
    ReverseStr,
    MulChecked,
    MapNew,
    /// A new record of the struct type, its fields not yet written.
    StructNew(Type),
    Copy,
    Decode(Type),
    EncSize(Type),
    Enc(Type),
    Encode(Type),
    /// The size work counts of a nested value, walked no further than past
    /// a limit (`spec/semantics.md` 7).
    Size(Type),
    /// A function of the `isu` module that pack lowerings import
    /// ([`crate::pack`]), where the runtime has none of the same signature.
    Pack(PackImport),
}

/// The functions a pack lowering may import from the module `isu`
/// (`spec/plugin-abi.md`, "Lowerings for Wasm"), besides those the runtime
/// has already (`alloc`, `free`, `retain`, `str_new`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum PackImport {
    /// `fail(code)`: the runtime error of that number at the calling step.
    Fail,
    /// `max_size() -> i64`: the run's size limit.
    MaxSize,
    /// `str_bytes(s) -> i32`: the length of `s` in bytes.
    StrBytes,
    /// `str_chars(s) -> i32`: the length of `s` in characters.
    StrChars,
    /// `str_data(s) -> i32`: the address of the first byte of `s`.
    StrData,
    /// `str_find(h, p, from) -> i32`: the byte offset of the first
    /// occurrence of `p` in `h` at or after the byte offset `from`, or -1.
    StrFind,
    /// `arr_len(xs) -> i32`: the number of elements.
    ArrLen,
    /// `arr_int(xs, i) -> i64`: element `i` of an `int[]`.
    ArrInt,
    /// `arr_bool(xs, i) -> i32`: element `i` of a `bool[]`.
    ArrBool,
    /// `arr_ref(xs, i) -> i32`: element `i` of an array of strings, arrays
    /// or maps (borrowed).
    ArrRef,
}

const I32: ValType = ValType::I32;
const I64: ValType = ValType::I64;

impl Rt {
    /// Parameter and result types.
    pub fn signature(&self) -> (Vec<ValType>, Vec<ValType>) {
        use Rt::*;
        match self {
            Raise => (vec![I32, I32], vec![]),
            Alloc => (vec![I32], vec![I32]),
            Free | Drop(_) => (vec![I32], vec![]),
            Copy => (vec![I32, I32, I32], vec![]),
            Inc => (vec![I32], vec![I32]),
            Reset => (vec![], vec![]),
            Grow(_) => (vec![I32, I32], vec![I32]),
            StrNew => (vec![I32, I32], vec![I32]),
            StrEq | StrCmp | Eq(_) => (vec![I32, I32], vec![I32]),
            ArrNew(_) | MapNew => (vec![I32], vec![I32]),
            Push(t) => (vec![I32, val_type(crate::layout::elem(t)), I32], vec![I32]),
            Pop(_) => (vec![I32, I32], vec![I32]),
            SliceArr(_) | SliceStr => (vec![I32, I64, I64, I32], vec![I32]),
            ConcatStr | ConcatArr(_) => (vec![I32, I32, I32], vec![I32]),
            MapFind(k) => (vec![I32, val_type(k)], vec![I32]),
            MapGet(t) => {
                let (k, v) = crate::layout::key_value(t);
                (vec![I32, val_type(k), I32], vec![val_type(v)])
            }
            MapGetOr(t) => {
                let (k, v) = crate::layout::key_value(t);
                (vec![I32, val_type(k), val_type(v)], vec![val_type(v)])
            }
            MapSet(t) => {
                let (k, v) = crate::layout::key_value(t);
                (vec![I32, val_type(k), val_type(v), I32], vec![I32])
            }
            MapKeys(_) | Split | Lower | Upper | KmpTable | Sort(_) | ReverseArr(_)
            | ReverseStr => (vec![I32], vec![I32]),
            Find => (vec![I32, I32, I32, I32], vec![I32]),
            StrFind => (vec![I32, I32], vec![I32]),
            IndexOfStr => (vec![I32, I32], vec![I64]),
            IndexOfArr(t) => (vec![I32, val_type(crate::layout::elem(t))], vec![I64]),
            SplitSep => (vec![I32, I32, I32], vec![I32]),
            Join => (vec![I32, I32, I32], vec![I32]),
            ToString => (vec![I64], vec![I32]),
            ParseInt => (vec![I32, I32], vec![I64]),
            FloatRepr => (vec![ValType::F64], vec![I32]),
            ParseFloat => (vec![I32, I32], vec![ValType::F64]),
            Repeat(t) => (vec![val_type(t), I64, I32], vec![I32]),
            Chars => (vec![I32, I32], vec![I32]),
            MulChecked => (vec![I64, I64, I32], vec![I64]),
            Decode(t) => (vec![], vec![val_type(t)]),
            StructNew(_) => (vec![], vec![I32]),
            EncSize(t) => (vec![val_type(t)], vec![I32]),
            Enc(t) => (vec![val_type(t), I32], vec![I32]),
            Encode(t) => (vec![val_type(t), I32], vec![I32]),
            Size(_) => (vec![I32, I64], vec![I64]),
            Pack(p) => {
                use PackImport::*;
                match p {
                    Fail => (vec![I32], vec![]),
                    MaxSize => (vec![], vec![I64]),
                    StrBytes | StrChars | StrData | ArrLen => (vec![I32], vec![I32]),
                    StrFind => (vec![I32, I32, I32], vec![I32]),
                    ArrInt => (vec![I32, I32], vec![I64]),
                    ArrBool | ArrRef => (vec![I32, I32], vec![I32]),
                }
            }
        }
    }

    /// A readable name for the name section (profilers, backtraces).
    pub fn name(&self) -> String {
        let base = format!("{self:?}");
        let cut = base.find('(').unwrap_or(base.len());
        let kind = &base[..cut];
        match (self, self.ty()) {
            (Rt::Pack(p), _) => format!("isu_rt.pack.{p:?}"),
            (Rt::ArrNew(shift), _) => format!("isu_rt.ArrNew<{}>", 1 << shift),
            (_, Some(t)) => format!("isu_rt.{kind}<{t}>"),
            _ => format!("isu_rt.{kind}"),
        }
    }

    fn ty(&self) -> Option<&Type> {
        use Rt::*;
        match self {
            Drop(t) | Grow(t) | Eq(t) | Push(t) | Pop(t) | SliceArr(t) | ConcatArr(t)
            | MapFind(t) | MapGet(t) | MapGetOr(t) | MapSet(t) | MapKeys(t) | Repeat(t)
            | Decode(t) | EncSize(t) | Enc(t) | Encode(t) | Size(t) | IndexOfArr(t) | Sort(t)
            | StructNew(t) | ReverseArr(t) => Some(t),
            _ => None,
        }
    }
}

struct Slot {
    ty: u32,
    name: String,
    body: Option<Function>,
}

/// The module being built.
#[derive(Default)]
pub struct ModuleBuilder {
    types: BTreeMap<(Vec<ValType>, Vec<ValType>), u32>,
    type_list: Vec<(Vec<ValType>, Vec<ValType>)>,
    funcs: Vec<Slot>,
    memo: BTreeMap<Rt, u32>,
    pending: VecDeque<Rt>,
    /// Static data placed at `STATIC_BASE`.
    data: Vec<u8>,
    exports: Vec<(String, ExportKind, u32)>,
    customs: Vec<(String, Vec<u8>)>,
    /// The program's structs, whose runtime functions walk their fields.
    pub structs: Structs,
    /// The functions of `runtime/float.wat` by export name, once copied in.
    pub floats: Option<BTreeMap<String, u32>>,
}

impl std::fmt::Debug for ModuleBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModuleBuilder")
            .field("funcs", &self.funcs.len())
            .field("data", &self.data.len())
            .finish_non_exhaustive()
    }
}

impl ModuleBuilder {
    /// A module for a program with these structs.
    pub fn new(structs: Structs) -> ModuleBuilder {
        ModuleBuilder {
            structs,
            ..ModuleBuilder::default()
        }
    }

    /// The fields of the struct type `ty` (a copy, so the runtime can
    /// generate code while it walks them).
    pub fn fields(&self, ty: &Type) -> Vec<Field> {
        self.structs.fields(ty).to_vec()
    }

    /// The index of a function type, added on first use.
    pub fn type_index(&mut self, params: Vec<ValType>, results: Vec<ValType>) -> u32 {
        let key = (params, results);
        if let Some(&i) = self.types.get(&key) {
            return i;
        }
        let i = self.type_list.len() as u32;
        self.type_list.push(key.clone());
        self.types.insert(key, i);
        i
    }

    /// Declares a function of the program (not a runtime one); its body comes
    /// later through [`ModuleBuilder::define`].
    pub fn declare(&mut self, name: &str, params: &[ValType], results: &[ValType]) -> u32 {
        let ty = self.type_index(params.to_vec(), results.to_vec());
        self.funcs.push(Slot {
            ty,
            name: name.to_owned(),
            body: None,
        });
        self.funcs.len() as u32 - 1
    }

    pub fn define(&mut self, index: u32, body: Function) {
        if let Some(slot) = self.funcs.get_mut(index as usize) {
            slot.body = Some(body);
        }
    }

    /// The index of a runtime function, declared (and queued for generation)
    /// on first use.
    pub fn rt(&mut self, key: Rt) -> u32 {
        if let Some(&i) = self.memo.get(&key) {
            return i;
        }
        let (p, r) = key.signature();
        let i = self.declare(&key.name(), &p, &r);
        self.memo.insert(key.clone(), i);
        self.pending.push_back(key);
        i
    }

    /// Places bytes in the static data (8-aligned) and returns their address.
    pub fn static_bytes(&mut self, bytes: &[u8]) -> u32 {
        while !self.data.len().is_multiple_of(8) {
            self.data.push(0);
        }
        let at = STATIC_BASE + self.data.len() as u32;
        self.data.extend_from_slice(bytes);
        at
    }

    pub fn export(&mut self, name: &str, kind: ExportKind, index: u32) {
        self.exports.push((name.to_owned(), kind, index));
    }

    pub fn custom(&mut self, name: &str, data: Vec<u8>) {
        self.customs.push((name.to_owned(), data));
    }

    /// Generates every runtime function asked for (and those they ask for).
    fn generate_pending(&mut self) {
        while let Some(key) = self.pending.pop_front() {
            let (params, _) = key.signature();
            let mut a = Asm::new(&params);
            runtime::generate(self, &key, &mut a);
            let index = self.memo.get(&key).copied();
            if let Some(i) = index {
                self.define(i, a.finish());
            }
        }
    }

    /// The encoded module.
    pub fn finish(mut self) -> Vec<u8> {
        self.rt(Rt::Reset);
        self.generate_pending();
        while !self.data.len().is_multiple_of(16) {
            self.data.push(0);
        }
        // User pointers are a block start plus 8; blocks are 16-aligned.
        let heap_base = STATIC_BASE + self.data.len() as u32;
        let pages = u64::from(heap_base).div_ceil(65536).max(1) + 1;

        let mut types = TypeSection::new();
        for (p, r) in &self.type_list {
            types.ty().function(p.iter().copied(), r.iter().copied());
        }
        let mut functions = FunctionSection::new();
        let mut code = CodeSection::new();
        let mut names = NameMap::new();
        for (i, f) in self.funcs.iter().enumerate() {
            functions.function(f.ty);
            match &f.body {
                Some(body) => code.function(body),
                None => {
                    // A declared function that was never defined is a bug of
                    // the backend; the module fails validation with it.
                    code.function(&Function::new([]))
                }
            };
            names.append(i as u32, &f.name);
        }
        let mut memory = MemorySection::new();
        memory.memory(MemoryType {
            minimum: pages,
            maximum: None,
            memory64: false,
            shared: false,
            page_size_log2: None,
        });
        let mut globals = GlobalSection::new();
        let mutable = |val_type| GlobalType {
            val_type,
            mutable: true,
            shared: false,
        };
        let hb = heap_base as i32;
        globals.global(mutable(I32), &ConstExpr::i32_const(hb));
        globals.global(
            GlobalType {
                val_type: I32,
                mutable: false,
                shared: false,
            },
            &ConstExpr::i32_const(hb),
        );
        globals.global(mutable(I32), &ConstExpr::i32_const(0));
        globals.global(mutable(I32), &ConstExpr::i32_const(-1));
        globals.global(
            mutable(I64),
            // The limits of a call when the host sets none (`isu_set_limits`).
            &ConstExpr::i64_const(ExecLimits::DEFAULT.max_steps as i64),
        );
        globals.global(
            mutable(I64),
            &ConstExpr::i64_const(ExecLimits::DEFAULT.max_size as i64),
        );
        globals.global(mutable(I32), &ConstExpr::i32_const(0));
        globals.global(mutable(I32), &ConstExpr::i32_const(0));
        globals.global(mutable(I64), &ConstExpr::i64_const(0));
        globals.global(mutable(I32), &ConstExpr::i32_const(-1));
        globals.global(
            mutable(I64),
            &ConstExpr::i64_const(ExecLimits::DEFAULT.max_memory as i64),
        );
        globals.global(mutable(I32), &ConstExpr::i32_const(-1));
        globals.global(mutable(I32), &ConstExpr::i32_const(0));
        globals.global(mutable(I32), &ConstExpr::i32_const(0));

        let mut exports = ExportSection::new();
        exports.export("memory", ExportKind::Memory, 0);
        for (name, kind, index) in &self.exports {
            exports.export(name, *kind, *index);
        }
        let mut data = DataSection::new();
        if !self.data.is_empty() {
            data.active(
                0,
                &ConstExpr::i32_const(STATIC_BASE as i32),
                self.data.iter().copied(),
            );
        }

        let mut module = Module::new();
        module.section(&types);
        module.section(&functions);
        module.section(&memory);
        module.section(&globals);
        module.section(&exports);
        module.section(&code);
        if !self.data.is_empty() {
            module.section(&data);
        }
        let mut name_section = NameSection::new();
        name_section.functions(&names);
        module.section(&name_section);
        for (name, bytes) in &self.customs {
            module.section(&CustomSection {
                name: name.into(),
                data: bytes.into(),
            });
        }
        module.finish()
    }
}
