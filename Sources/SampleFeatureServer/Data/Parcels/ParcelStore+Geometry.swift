import FeatureGeometry

/// Parcel outlines, rebuilt from the stored rectangle and cut corner.
extension ParcelStore {
    /// Up to six vertices (closed ring), clockwise as Esri writes outer rings.
    struct Ring {
        var x: (Int32, Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0, 0)
        var y: (Int32, Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0, 0)
        var count = 0

        mutating func append(_ px: Int32, _ py: Int32) {
            switch count {
            case 0: x.0 = px; y.0 = py
            case 1: x.1 = px; y.1 = py
            case 2: x.2 = px; y.2 = py
            case 3: x.3 = px; y.3 = py
            case 4: x.4 = px; y.4 = py
            default: x.5 = px; y.5 = py
            }
            count += 1
        }

        func vertex(_ position: Int) -> (Int32, Int32) {
            switch position {
            case 0: (x.0, y.0)
            case 1: (x.1, y.1)
            case 2: (x.2, y.2)
            case 3: (x.3, y.3)
            case 4: (x.4, y.4)
            default: (x.5, y.5)
            }
        }
    }

    /// The parcel's ring in centimeters: the rectangle SW, NW, NE, SE (clockwise), with the cut corner
    /// replaced by two vertices a fifth of the shorter side away, closed by repeating the first vertex.
    func ring(_ index: Int) -> Ring {
        let x0 = xmin[index], y0 = ymin[index], x1 = xmax[index], y1 = ymax[index]
        let cut = corner[index]
        let size = cut == 0 ? 0 : Swift.min(x1 - x0, y1 - y0) / 5
        var ring = Ring()
        if cut == 4 {
            ring.append(x0 + size, y0)
            ring.append(x0, y0 + size)
        } else {
            ring.append(x0, y0)
        }
        if cut == 1 {
            ring.append(x0, y1 - size)
            ring.append(x0 + size, y1)
        } else {
            ring.append(x0, y1)
        }
        if cut == 2 {
            ring.append(x1 - size, y1)
            ring.append(x1, y1 - size)
        } else {
            ring.append(x1, y1)
        }
        if cut == 3 {
            ring.append(x1, y0 + size)
            ring.append(x1 - size, y0)
        } else {
            ring.append(x1, y0)
        }
        let start = ring.vertex(0)
        ring.append(start.0, start.1)
        return ring
    }

    /// The parcel as a FeatureGeometry polygon in Web Mercator meters.
    func polygon(_ index: Int) -> Geometry {
        let ring = ring(index)
        var positions: [Position] = []
        positions.reserveCapacity(ring.count)
        for position in 0..<ring.count {
            let (x, y) = ring.vertex(position)
            positions.append(Position(x: Double(x) / 100, y: Double(y) / 100))
        }
        return .polygon(Polygon(rings: [positions], spatialReference: .webMercator))
    }

    /// The parcel's bounding rectangle in meters.
    func extent(_ index: Int) -> Envelope {
        Envelope(
            xmin: Double(xmin[index]) / 100, ymin: Double(ymin[index]) / 100, xmax: Double(xmax[index]) / 100,
            ymax: Double(ymax[index]) / 100, spatialReference: .webMercator)
    }
}
