import DepInternal

public func depKit() -> Int { depInternal() }
