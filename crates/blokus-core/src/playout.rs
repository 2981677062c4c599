//! Fast uniformly random playouts.
