public func depInternal() -> Int { 1 }
