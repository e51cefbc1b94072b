import APMInspectCore
import MetricKitParsing
import Testing

/// The flame-graph view of a sampled tree: callers at the root, numbers that add up, bounded pruning.
@Suite struct MetricKitFlameTreeTests {
    static func cpuTree() throws -> MetricKitCallTree {
        let result = try MetricKitCorpusTests.read("ios17.2_cpu_exception_aggregated_tree.json")
        return try #require(result.report.diagnostics.first?.callTree)
    }

    /// For each frame line, its callees (the following lines one level deeper, until one as shallow as it).
    static func children(of index: Int, in lines: [MetricKitFlameTree.Line]) -> [MetricKitFlameTree.Line] {
        let depth = lines[index].depth
        var result: [MetricKitFlameTree.Line] = []
        for line in lines[(index + 1)...] {
            if line.depth <= depth { break }
            if line.depth == depth + 1 { result.append(line) }
        }
        return result
    }

    @Test func numbersAddUpOnTheCorpusCPUException() throws {
        let flame = try Self.cpuTree().flameTree(minimumShare: 0)
        #expect(flame.totalSamples == 175)
        #expect(flame.isComplete && flame.framesPastLineCap == 0)
        #expect(flame.lines.allSatisfy { $0.kind == .frame })
        let roots = flame.lines.filter { $0.depth == 0 }
        // Outermost callers, heaviest first; together they are every sample.
        #expect(roots.map(\.totalSamples) == [95, 40, 20, 15, 5])
        #expect(roots.map(\.totalSamples).reduce(0, +) == flame.totalSamples)
        #expect(roots.first?.label == "libsystem_pthread.dylib+0x206c")
        for index in flame.lines.indices {
            let line = flame.lines[index]
            let callees = Self.children(of: index, in: flame.lines)
            let sum = callees.map(\.totalSamples).reduce(0, +)
            #expect(sum <= line.totalSamples)
            #expect(line.selfSamples == line.totalSamples - sum)
            for pair in zip(callees, callees.dropFirst()) { #expect(pair.0.totalSamples >= pair.1.totalSamples) }
        }
        // The executing frame of the heaviest stack ends the first branch, with all its samples as self.
        #expect(flame.lines[3].label == "FernwayKit+0x5a2f4" && flame.lines[3].selfSamples == 95)
        #expect(flame.lines[3].depth == 3)
        #expect(flame.percent(95) > 54.2 && flame.percent(95) < 54.3)
    }

    @Test func framesBelowTheShareAreCounted() throws {
        let tree = try Self.cpuTree()
        let all = tree.flameTree(minimumShare: 0)
        // 10 % of 175 is 17.5: the 15- and 5-sample callers (1 and 3 frames) go into one cut line, last.
        let flame = tree.flameTree(minimumShare: 0.1)
        let cut = try #require(flame.lines.last)
        #expect(cut.kind == .belowShare && cut.depth == 0)
        #expect(cut.totalSamples == 20 && cut.hiddenFrames == 4)
        #expect(flame.lines.filter { $0.kind == .frame }.count + cut.hiddenFrames == all.lines.count)
        // The default share (2 %) keeps the 5-sample stack (2.9 %).
        #expect(tree.flameTree().lines.count == all.lines.count)
    }

    @Test func depthAndLineCapsBoundTheView() throws {
        let tree = try Self.cpuTree()
        let all = tree.flameTree(minimumShare: 0)
        let shallow = tree.flameTree(minimumShare: 0, maxDepth: 2)
        #expect(shallow.lines.allSatisfy { $0.depth <= 2 })
        let deep = shallow.lines.filter { $0.kind == .tooDeep }
        #expect(deep.allSatisfy { $0.depth == 2 })
        let listed = shallow.lines.filter { $0.kind == .frame }.count
        #expect(listed + deep.map(\.hiddenFrames).reduce(0, +) == all.lines.count)
        let short = tree.flameTree(minimumShare: 0, maxLines: 3)
        #expect(short.lines.count == 3)
        #expect(short.framesPastLineCap == all.lines.count - 3)
    }

    /// A tree 20,000 frames wide, each caller with one sample: the view stays a few lines.
    @Test func wideHostileTreeGivesABoundedView() throws {
        let frame = #"{"binaryName":"B","offsetIntoBinaryTextSegment":1,"address":4096,"sampleCount":1,"subFrames":["#
        var roots: [String] = []
        for index in 0..<20_000 {
            roots.append(
                frame + #"{"binaryName":"C\#(index)","offsetIntoBinaryTextSegment":1,"address":4096,"sampleCount":1}]}"#
            )
        }
        let text =
            #"{"callStackPerThread":false,"callStacks":[{"callStackRootFrames":["#
            + roots.joined(separator: ",") + "]}]}"
        let tree = try #require(try MetricKitReader().read(Array(text.utf8)).report.diagnostics.first?.callTree)
        let flame = tree.flameTree()
        #expect(flame.totalSamples == 20_000)
        #expect(flame.lines.count == 1)
        #expect(flame.lines[0].kind == .belowShare && flame.lines[0].hiddenFrames == 40_000)
        // Merging by label: every stack ends in `B+0x1`, called from 20,000 different callers.
        let capped = tree.flameTree(minimumShare: 0, maxLines: 50)
        #expect(capped.lines.count == 50)
        #expect(capped.framesPastLineCap == 40_000 - 50)
    }

    @Test func budgetStopsFolding() throws {
        let flame = try Self.cpuTree().flameTree(frameBudget: 5)
        #expect(!flame.isComplete)
        #expect(flame.totalSamples < 175)
    }

    @Test func blamedThreadIsTheAttributedStacksHeaviestPath() throws {
        let result = try MetricKitCorpusTests.read("ios16.4.1_two_payloads_hangs_per_thread_tree.json")
        let hang = try #require(result.report.diagnostics.first)
        let thread = try #require(hang.blamedThread)
        #expect(thread.frames.count == 12)
        #expect(thread.frames.map(\.image).prefix(3) == ["libsystem_kernel.dylib", "libsystem_kernel.dylib", "SQLite"])
        #expect(thread.frames.last?.image == "dyld")
        #expect(thread.frames.filter { $0.isAppFrame == true }.map(\.index) == [5, 10])
        let analysed = result.report.analyzingHangs { thread in
            MetricKitHangAnalysis(
                verdict: "v\(thread.frames.count)",
                summary: "",
                confidence: "low",
                reasons: [],
                evidenceFrames: []
            )
        }
        #expect(analysed.diagnostics.map { $0.analysis?.verdict } == ["v12", "v9"])
    }
}

/// The app-launch payload: its figure, its threads and the view of the attributed main thread.
@Suite struct MetricKitAppLaunchTests {
    @Test func appLaunchDiagnostic() throws {
        let result = try MetricKitCorpusTests.read("ios18.0.1_app_launch_diagnostic.json")
        #expect(result.diagnostics.isEmpty)
        #expect(result.report.diagnosticCounts == ["appLaunch": 1])
        let launch = try #require(result.report.diagnostics.first)
        #expect(launch.kind == .appLaunch && launch.keyPath == "appLaunchDiagnostics[0]")
        #expect(launch.launchDuration?.raw == "3,410 ms" && launch.launchDuration?.normalized == 3.41)
        #expect(launch.metadata.osBuild == "22A3370")
        let tree = try #require(launch.callTree)
        #expect(tree.totalSamples == 80 && tree.stacks.map(\.totalSamples) == [40, 40])
        // The model's heaviest path is the idle background thread; the attributed one is the main thread's.
        #expect(tree.frames[tree.heaviestPath[0]].stack == 1)
        let main = tree.heaviestPath(ofStack: 0)
        #expect(main.map { tree.label(of: $0) }.prefix(2) == ["libsystem_kernel.dylib+0x1a90", "CFNetwork+0x2f1c0"])
        let flame = tree.flameTree(stacks: [0])
        #expect(flame.totalSamples == 40)
        #expect(flame.lines.map(\.totalSamples) == [40, 40, 40, 40, 26, 26, 26, 26, 26, 14, 14])
        #expect(flame.lines.map(\.selfSamples) == [0, 0, 0, 0, 0, 0, 0, 0, 26, 0, 14])
        #expect(flame.lines[4].depth == 4 && flame.lines[9].depth == 4)
        #expect(launch.blamedThread?.frames.filter { $0.isAppFrame == true }.count == 2)
    }
}
