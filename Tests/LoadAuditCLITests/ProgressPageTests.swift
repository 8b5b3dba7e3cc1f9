import Foundation
import XCTest

/// The progress page as a person sees it: rendered by headless Chromium (Debian's `chromium`, which
/// .ci/run installs), its numbers read back from the rendered document and compared with the JSON
/// report of the same history, and its screenshot checked for being a picture, not a blank.
final class ProgressPageTests: XCTestCase {
    private static let browser: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }()

    /// Runs a program to its end; its standard output.
    @discardableResult
    private func run(_ program: String, _ arguments: [String]) throws -> String {
        try runProgram(program, arguments)
    }

    @discardableResult
    private func chromium(_ arguments: [String], page: URL) throws -> String {
        guard let browser = Self.browser else {
            // CI sets LOADAUDIT_REQUIRE_CHROMIUM: there, a missing browser is a failure, not a skip.
            if ProcessInfo.processInfo.environment["LOADAUDIT_REQUIRE_CHROMIUM"] != nil { XCTFail("chromium is not installed") }
            throw XCTSkip("chromium is not installed (apt-get install chromium): the page is not rendered")
        }
        let profile = try TemporaryTree()
        return try run(browser, ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=\(profile.path)"]
                       + arguments + [page.absoluteString])
    }

    /// The cells of the rendered table in `section`, row by row, as text.
    private func tableRows(_ dom: String, section: String) throws -> [[String]] {
        let start = try XCTUnwrap(dom.range(of: "<section id=\"\(section)\">"), "no \(section) section in the page")
        let end = try XCTUnwrap(dom.range(of: "</section>", range: start.upperBound..<dom.endIndex))
        let table = String(dom[start.upperBound..<end.lowerBound])
        let body = table.components(separatedBy: "<tbody>").last ?? ""
        return body.components(separatedBy: "<tr>").dropFirst().map { row in
            row.components(separatedBy: "<td").dropFirst().map { cell in
                let text = cell.drop { $0 != ">" }.dropFirst()
                return String(text.prefix { $0 != "<" }).trimmingCharacters(in: .whitespaces)
            }
        }
    }

    private func text(_ dom: String, id: String) throws -> String {
        let start = try XCTUnwrap(dom.range(of: "id=\"\(id)\">"), "no #\(id) in the page")
        return String(dom[start.upperBound...].prefix { $0 != "<" })
    }

    func testThePageShowsTheNumbersOfTheJSONReport() throws {
        let tree = try ProgressTests.migratingRepository()
        try tree.write(".github/CODEOWNERS", "*.swift @mobile\n/Kit/ @kit-team\n")
        let json = CLIRun(["progress", "--format", "json", "--html", "progress.html", "."], in: tree.path)
        XCTAssertEqual(json.status, 0, json.errors)
        let history = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let samples = try XCTUnwrap(history["samples"] as? [[String: Any]])
        let page = tree.url.appendingPathComponent("progress.html")
        let dom = try chromium(["--dump-dom"], page: page)
        XCTAssertTrue(dom.contains("<svg"), "the burndown is drawn")

        // The samples table: newest first; a sample whose counts equal the one before may be left out.
        let rows = try tableRows(dom, section: "samples").filter { $0.count == 6 }
        XCTAssertFalse(rows.isEmpty)
        for row in rows {
            let sample = try XCTUnwrap(samples.first { ($0["commit"] as? String)?.hasPrefix(row[1]) == true }, "row \(row)")
            XCTAssertEqual(row[0], sample["date"] as? String)
            XCTAssertEqual(Int(row[2]), (sample["findingsByRule"] as? [String: Int])?.values.reduce(0, +), "findings of \(row[0])")
            XCTAssertEqual(Int(row[3]), (sample["adoption"] as? [String: Int])?.values.reduce(0, +), "adopted at \(row[0])")
        }
        XCTAssertEqual(rows.first?[0], samples.last?["date"] as? String, "HEAD first")

        // The figures at the top are HEAD's.
        let last = try XCTUnwrap(samples.last)
        XCTAssertEqual(Int(try text(dom, id: "findings-now")), (last["findingsByRule"] as? [String: Int])?.values.reduce(0, +))
        XCTAssertEqual(Int(try text(dom, id: "adopted-now")), (last["adoption"] as? [String: Int])?.values.reduce(0, +))

        // Per folder and per owner: now and at the first sample.
        for (section, key) in [("folders", "findingsByFolder"), ("owners", "findingsByOwner")] {
            let table = try tableRows(dom, section: section)
            XCTAssertFalse(table.isEmpty, section)
            for row in table {
                XCTAssertEqual(Int(row[1]), (last[key] as? [String: Int])?[row[0]] ?? 0, "\(section) \(row[0]) now")
                XCTAssertEqual(Int(row[2]), (samples.first?[key] as? [String: Int])?[row[0]] ?? 0, "\(section) \(row[0]) at first")
            }
        }
        // The commits that moved the counts, from the JSON, are named on the page.
        let changes = samples.flatMap { ($0["biggestChanges"] as? [[String: Any]]) ?? [] }
        XCTAssertFalse(changes.isEmpty)
        for change in changes { XCTAssertTrue(dom.contains(String((change["commit"] as? String ?? "?").prefix(8))), "\(change)") }
    }

    /// The screenshot is a picture: many pixels that are not the page's white, in several colours.
    func testTheScreenshotIsNotBlank() throws {
        let tree = try ProgressTests.migratingRepository()
        XCTAssertEqual(CLIRun(["progress", "--html", "progress.html", "."], in: tree.path).status, 0)
        let shot = tree.url.appendingPathComponent("shot.png")
        try chromium(["--window-size=1200,1400", "--screenshot=\(shot.path)"], page: tree.url.appendingPathComponent("progress.html"))
        let python = try XCTUnwrap(["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                   "python3 reads the PNG")
        // A PNG decoder in a few lines of Python's standard library (zlib): 8-bit RGB or RGBA, filters 0-4.
        let decoder = """
        import struct, sys, zlib
        data = open(sys.argv[1], 'rb').read()
        assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n'
        pos, idat = 8, b''
        while pos < len(data):
            length, kind = struct.unpack('>I4s', data[pos:pos + 8])
            chunk = data[pos + 8:pos + 8 + length]
            if kind == b'IHDR': width, height, depth, colour = struct.unpack('>IIBB', chunk[:10])
            if kind == b'IDAT': idat += chunk
            pos += 12 + length
        assert depth == 8 and colour in (2, 6), (depth, colour)
        bpp = 3 if colour == 2 else 4
        raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
        for y in range(height):
            kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                if kind == 1: line[i] = (line[i] + a) & 255
                elif kind == 2: line[i] = (line[i] + b) & 255
                elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
                elif kind == 4:
                    p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            rows.append(line); prev = line
        colours, inked = set(), 0
        for line in rows:
            for x in range(0, stride, bpp):
                pixel = tuple(line[x:x + 3]); colours.add(pixel)
                if pixel != (255, 255, 255): inked += 1
        print(width, height, inked, len(colours))
        """
        let figures = try run(python, ["-c", decoder, shot.path]).split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        XCTAssertEqual(figures.count, 4)
        guard figures.count == 4 else { return }
        let (width, height, inked, colours) = (figures[0], figures[1], figures[2], figures[3])
        XCTAssertEqual(width, 1200)
        XCTAssertGreaterThan(Double(inked) / Double(width * height), 0.03, "at least 3% of the page is not white")
        XCTAssertGreaterThan(colours, 20, "text, the chart's colours and their edges")
    }
}
