//! The Python backend: IIR to one Python 3 module.
