public func depExtra() -> Int { 2 }
