//! One function body under construction: its code bytes, its locals (with a
//! pool of scratch locals), and labels that know their nesting depth, so that
//! branch targets are named rather than counted.

use wasm_encoder::{BlockType, Function, InstructionSink, MemArg, ValType};

/// A local variable (parameters first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Local(pub u32);

/// A block, loop or if to branch to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Label(u32);

/// A function body being written.
#[derive(Debug)]
pub struct Asm {
    n_params: u32,
    locals: Vec<ValType>,
    code: Vec<u8>,
    depth: u32,
    free: Vec<Local>,
}

/// A memory access at `offset` with natural alignment for `align` (log2 bytes).
pub fn mem(offset: u64, align: u32) -> MemArg {
    MemArg {
        offset,
        align,
        memory_index: 0,
    }
}

impl Asm {
    pub fn new(params: &[ValType]) -> Asm {
        Asm {
            n_params: params.len() as u32,
            locals: params.to_vec(),
            code: Vec::new(),
            depth: 0,
            free: Vec::new(),
        }
    }

    /// The instruction sink: `a.i().local_get(x).i64_add();`.
    pub fn i(&mut self) -> InstructionSink<'_> {
        InstructionSink::new(&mut self.code)
    }

    /// Where the next instruction goes, in bytes from the first instruction.
    pub fn offset(&self) -> usize {
        self.code.len()
    }

    pub fn param(&self, n: u32) -> Local {
        Local(n)
    }

    /// A new local of its own for the rest of the function.
    pub fn local(&mut self, ty: ValType) -> Local {
        self.locals.push(ty);
        Local(self.locals.len() as u32 - 1)
    }

    /// A scratch local; give it back with [`Asm::release`] when done.
    pub fn temp(&mut self, ty: ValType) -> Local {
        if let Some(pos) = self
            .free
            .iter()
            .position(|l| self.locals.get(l.0 as usize) == Some(&ty))
        {
            return self.free.swap_remove(pos);
        }
        self.local(ty)
    }

    pub fn release(&mut self, l: Local) {
        self.free.push(l);
    }

    pub fn get(&mut self, l: Local) -> &mut Self {
        self.i().local_get(l.0);
        self
    }

    pub fn set(&mut self, l: Local) -> &mut Self {
        self.i().local_set(l.0);
        self
    }

    pub fn tee(&mut self, l: Local) -> &mut Self {
        self.i().local_tee(l.0);
        self
    }

    pub fn i32(&mut self, v: i32) -> &mut Self {
        self.i().i32_const(v);
        self
    }

    pub fn i64(&mut self, v: i64) -> &mut Self {
        self.i().i64_const(v);
        self
    }

    pub fn block(&mut self, bt: BlockType) -> Label {
        self.i().block(bt);
        self.depth += 1;
        Label(self.depth)
    }

    pub fn loop_(&mut self, bt: BlockType) -> Label {
        self.i().loop_(bt);
        self.depth += 1;
        Label(self.depth)
    }

    pub fn if_(&mut self, bt: BlockType) -> Label {
        self.i().if_(bt);
        self.depth += 1;
        Label(self.depth)
    }

    pub fn else_(&mut self) {
        self.i().else_();
    }

    pub fn end(&mut self) {
        self.i().end();
        self.depth = self.depth.saturating_sub(1);
    }

    pub fn br(&mut self, l: Label) {
        let rel = self.depth - l.0;
        self.i().br(rel);
    }

    pub fn br_if(&mut self, l: Label) {
        let rel = self.depth - l.0;
        self.i().br_if(rel);
    }

    /// The finished function (the final `end` included).
    pub fn finish(mut self) -> Function {
        self.i().end();
        let mut locals: Vec<(u32, ValType)> = Vec::new();
        for t in &self.locals[self.n_params as usize..] {
            match locals.last_mut() {
                Some((n, last)) if last == t => *n += 1,
                _ => locals.push((1, *t)),
            }
        }
        let mut f = Function::new(locals);
        f.raw(self.code);
        f
    }
}
